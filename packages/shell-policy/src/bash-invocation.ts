/**
 * A bash command as the policy's rules see it: its name and words, after unwrapping `sudo`,
 * `env`, `nohup` and the like, and whether its stdin is fed (a pipe or a redirect) or is the
 * tool's closed stdin.
 */
import { bashWord, commandBaseName, type Word } from "./bash-words.js";
import type { SyntaxNode } from "./parser.js";

/** A command as the rules see it, after unwrapping `sudo`, `env`, `nohup` and the like. */
export interface Invocation {
  name: string;
  args: Word[];
  node: SyntaxNode;
  /** Its stdin comes from a pipe or a redirect (a REPL then reads a script, not a person). */
  stdinFed: boolean;
}

/** Wrappers that run their argument as a command, with how many option values they take. */
export const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t", "-R", "-T"]),
  doas: new Set(["-u", "-C"]),
  env: new Set(["-u", "-C", "-S"]),
  nohup: new Set(),
  time: new Set(["-f", "-o"]),
  nice: new Set(["-n"]),
  ionice: new Set(["-c", "-n", "-p"]),
  exec: new Set(["-a"]),
  command: new Set(),
  builtin: new Set(),
  setsid: new Set(),
  stdbuf: new Set(["-i", "-o", "-e"]),
  xargs: new Set(["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s"]),
  timeout: new Set(["-k", "-s"]),
};

export function unwrap(inv: Invocation): Invocation | undefined {
  const valued = WRAPPERS[inv.name];
  if (!valued) return undefined;
  let i = 0;
  // `timeout` takes a duration before the command.
  let positionalToSkip = inv.name === "timeout" ? 1 : 0;
  while (i < inv.args.length) {
    const v = inv.args[i]?.value;
    if (v === undefined) return undefined;
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("-")) {
      i += valued.has(v) ? 2 : 1;
      continue;
    }
    if (inv.name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      i++;
      continue;
    }
    if (positionalToSkip > 0) {
      positionalToSkip--;
      i++;
      continue;
    }
    break;
  }
  const head = inv.args[i];
  if (!head?.value) return undefined;
  return {
    name: commandBaseName(head.value),
    args: inv.args.slice(i + 1),
    node: inv.node,
    stdinFed: inv.stdinFed,
  };
}

export function toInvocation(command: SyntaxNode): Invocation | undefined {
  const nameNode = command.childForFieldName("name");
  if (!nameNode) return undefined;
  const name = bashWord(nameNode.namedChildren[0] ?? nameNode).value;
  if (name === undefined) return undefined;
  const args = command.childrenForFieldName("argument").flatMap((n) => (n ? [bashWord(n)] : []));
  return { name: commandBaseName(name), args, node: command, stdinFed: stdinFedAt(command) };
}

/** The flags among `args` (words starting with `-`, up to `--`). Only values are read. */
export function flags(args: readonly Pick<Word, "value">[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a.value === "--") break;
    if (a.value?.startsWith("-")) out.push(a.value);
  }
  return out;
}

export function operands(args: Word[]): Word[] {
  const out: Word[] = [];
  let afterDashes = false;
  for (const a of args) {
    if (!afterDashes && a.value === "--") {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && a.value?.startsWith("-")) continue;
    out.push(a);
  }
  return out;
}

/** Nodes whose inside gets a stdin of its own: a redirect or pipe outside them does not reach in. */
const STDIN_BOUNDARIES: ReadonlySet<string> = new Set([
  "command_substitution",
  "process_substitution",
  "program",
]);

/**
 * Whether `node`'s stdin comes from a pipe or a redirect of it or of a statement around it
 * (`cat f | while read l; do ...; done`, `{ read a; } < f`), rather than the tool's closed stdin.
 */
export function stdinFedAt(node: SyntaxNode): boolean {
  // A here-string can sit inside the command node itself (`read x <<< 'y'`).
  if (node.namedChildren.some((child) => child !== null && isInputRedirect(child))) return true;
  let holder: SyntaxNode = node;
  for (let parent = node.parent; parent && !STDIN_BOUNDARIES.has(parent.type); parent = parent.parent) {
    if (parent.type === "pipeline" && parent.namedChildren[0]?.startIndex !== holder.startIndex) return true;
    if (parent.type === "redirected_statement") {
      for (const r of parent.childrenForFieldName("redirect")) if (r && isInputRedirect(r)) return true;
    }
    holder = parent;
  }
  return false;
}

function isInputRedirect(node: SyntaxNode): boolean {
  if (node.type === "heredoc_redirect" || node.type === "herestring_redirect") return true;
  return node.type === "file_redirect" && /^\s*\d*</.test(node.text) && !/^\s*\d*<>/.test(node.text);
}
