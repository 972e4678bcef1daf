import { posix } from "node:path";
import { bashWord, commandBaseName, HOME_TOKEN } from "./bash-words.js";
import { descendantsOfType, type SyntaxNode } from "./parser.js";
import type { PolicyScope } from "./types.js";

/** Node types whose `cd` does not change the directory of what follows them. */
const SCOPED = new Set(["subshell", "command_substitution", "process_substitution", "pipeline"]);

function scoped(node: SyntaxNode): boolean {
  for (let up = node.parent; up; up = up.parent) if (SCOPED.has(up.type)) return true;
  return false;
}

/** Where a literal `cd`/`pushd` lands from `cwd`; undefined when it is known only at run time. */
function landing(command: SyntaxNode, cwd: string, scope: PolicyScope): string | undefined {
  const args = command.childrenForFieldName("argument").flatMap((n) => (n ? [bashWord(n)] : []));
  const target = args.find((a) => a.value === undefined || !a.value.startsWith("-"));
  const value = target ? target.value : HOME_TOKEN;
  if (value === undefined) return undefined;
  if (value === HOME_TOKEN || value.startsWith(`${HOME_TOKEN}/`)) {
    return scope.homeDir ? posix.join(scope.homeDir, value.slice(1)) : undefined;
  }
  return posix.resolve(cwd, value);
}

/**
 * The directory each part of a bash command runs in, following literal `cd`/`pushd` steps of
 * the command itself (`cd .. && cd .. && rm -rf x` deletes two levels up). A `cd` inside a
 * subshell, substitution or pipeline stage changes nothing after it; a `cd` to a runtime value
 * (`cd "$DIR"`, `cd -`) keeps the last known directory, one of the policy's documented limits.
 * Returns the scope for a source position. POSIX paths only: bash is not judged on Windows.
 */
export function bashScopeAt(root: SyntaxNode, scope: PolicyScope): (position: number) => PolicyScope {
  const steps: Array<{ after: number; scope: PolicyScope }> = [];
  let cwd = scope.cwd;
  for (const command of descendantsOfType(root, new Set(["command"]))) {
    const nameNode = command.childForFieldName("name");
    const name = nameNode ? bashWord(nameNode.namedChildren[0] ?? nameNode).value : undefined;
    if (name === undefined || !["cd", "pushd"].includes(commandBaseName(name)) || scoped(command)) continue;
    const next = landing(command, cwd, scope);
    if (next === undefined || next === cwd) continue;
    cwd = next;
    steps.push({ after: command.endIndex, scope: { ...scope, cwd } });
  }
  return (position) => {
    let current = scope;
    for (const step of steps) if (step.after <= position) current = step.scope;
    return current;
  };
}
