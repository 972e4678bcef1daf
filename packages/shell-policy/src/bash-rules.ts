import { bashScopeAt } from "./bash-cwd.js";
import { inputReaderOf, selectReaderOf } from "./bash-input.js";
import { flags, type Invocation, operands, stdinFedAt, toInvocation, unwrap } from "./bash-invocation.js";
import { BASH_RULE_COMMANDS } from "./bash-rule-names.js";
import { bashWord, HOME_TOKEN, type Word } from "./bash-words.js";
import { descendantsOfType, type SyntaxNode, withSyntaxTree } from "./parser.js";
import { classifyPath, cwdEscapeTarget, isWritableException } from "./paths.js";
import {
  DOWNLOADERS,
  EDITORS_AND_PAGERS,
  isBroadLiteral,
  PRIVILEGE_COMMANDS,
  REPLS,
  SCRIPT_RUNNERS,
} from "./rule-data.js";
import type { InputReader, PolicyConfig, PolicyHit, PolicyScope } from "./types.js";
import { DEFAULT_WRITABLE_PATHS } from "./types.js";

const MAX_NESTING = 3;

/** A script run by `bash -c` or `eval`, with the directory it starts in. */
interface NestedScript {
  script: string;
  scope: PolicyScope;
}

const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "dash", "zsh", "ksh", "fish"]);

function expandHome(value: string, scope: PolicyScope): string | undefined {
  if (value !== HOME_TOKEN && !value.startsWith(`${HOME_TOKEN}/`)) return value;
  return scope.homeDir ? scope.homeDir + value.slice(1) : undefined;
}

/**
 * Where `cd VALUE` (a literal operand) lands when that leaves the workspace, the `cwd-escape`
 * rule; undefined when it stays inside, on a root, or is known only at run time.
 */
export function cdEscapeTarget(value: string, scope: PolicyScope): string | undefined {
  const expanded = expandHome(value, scope);
  return expanded === undefined ? undefined : cwdEscapeTarget(expanded, scope);
}

function checkRecursiveDelete(
  inv: Invocation,
  scope: PolicyScope,
  config: PolicyConfig,
  hits: PolicyHit[],
): void {
  if (inv.name !== "rm") return;
  const recursive = flags(inv.args).some((f) => f === "--recursive" || /^-[a-zA-Z]*[rR]/.test(f));
  if (!recursive) return;
  const writable = config.writablePaths ?? DEFAULT_WRITABLE_PATHS;
  for (const target of operands(inv.args)) {
    if (target.value === undefined) {
      if (/^["']?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?["']?\/?\*?$/.test(target.text)) {
        hits.push({
          rule: "recursive-delete",
          text: inv.node.text,
          reason: `recursive delete of ${target.text}: an unset variable makes it delete from /`,
        });
      }
      continue;
    }
    const expanded = expandHome(target.value, scope);
    if (expanded === undefined || isBroadLiteral(target.value)) {
      hits.push({
        rule: "recursive-delete",
        text: inv.node.text,
        reason: `recursive delete of a broad target: ${target.text}`,
      });
      continue;
    }
    const dir = expanded.replace(/\/?\*$/, "") || ".";
    const { cls, resolved } = classifyPath(dir, scope);
    if (cls === "root-or-above") {
      hits.push({
        rule: "recursive-delete",
        text: inv.node.text,
        reason: `recursive delete of ${resolved}, a workspace root or its parent`,
      });
    } else if (cls === "outside" && !isWritableException(`${resolved}/`, writable)) {
      hits.push({
        rule: "recursive-delete",
        text: inv.node.text,
        reason: `recursive delete outside the workspace: ${resolved}`,
      });
    }
  }
}

/**
 * `find PATH... -delete` (or `-exec rm`) starting outside the workspace, above it, or at `/` or
 * home. Inside the workspace it is left alone: its filters (`-name '*.o'`) narrow what it deletes.
 */
function checkFindDelete(inv: Invocation, scope: PolicyScope, hits: PolicyHit[]): void {
  if (inv.name !== "find") return;
  const values = inv.args.map((a) => a.value);
  const execRm = values.some((v, i) => (v === "-exec" || v === "-execdir") && values[i + 1] === "rm");
  if (!values.includes("-delete") && !execRm) return;
  for (const start of inv.args) {
    const v = start.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!")) break;
    const expanded = v === undefined ? undefined : expandHome(v, scope);
    const landing = expanded === undefined ? start.text : cwdEscapeTarget(expanded, scope);
    if (landing === undefined) continue;
    hits.push({
      rule: "recursive-delete",
      text: inv.node.text,
      reason: `find deletes under ${landing}, outside the workspace`,
    });
  }
}

function checkWriteTarget(
  target: Word,
  what: string,
  scope: PolicyScope,
  config: PolicyConfig,
  hits: PolicyHit[],
  text: string,
): void {
  if (target.value === undefined) return;
  const expanded = expandHome(target.value, scope);
  if (expanded === undefined) return;
  const { cls, resolved } = classifyPath(expanded, scope);
  if (cls === "inside") return;
  if (isWritableException(resolved, config.writablePaths ?? DEFAULT_WRITABLE_PATHS)) return;
  hits.push({
    rule: "overwrite-outside-workspace",
    text,
    reason: `${what} overwrites ${resolved}, outside the workspace`,
  });
}

function checkInvocation(
  inv: Invocation,
  scope: PolicyScope,
  config: PolicyConfig,
  hits: PolicyHit[],
  nested: NestedScript[],
): void {
  if (!BASH_RULE_COMMANDS.has(inv.name)) return;
  const text = inv.node.text;
  if (PRIVILEGE_COMMANDS.has(inv.name)) {
    hits.push({
      rule: "privilege-escalation",
      text,
      reason: `${inv.name} runs a command with other privileges`,
    });
  }
  if (
    inv.name === "chmod" &&
    inv.args.some((a) => a.value !== undefined && /^([ugoa]*\+[rwxXt]*s|[2467][0-7]{3})$/.test(a.value))
  ) {
    hits.push({ rule: "privilege-escalation", text, reason: "chmod sets the setuid/setgid bit" });
  }
  checkRecursiveDelete(inv, scope, config, hits);
  checkFindDelete(inv, scope, hits);
  if (inv.name === "tee" && !flags(inv.args).some((f) => f === "-a" || f === "--append")) {
    for (const target of operands(inv.args)) checkWriteTarget(target, "tee", scope, config, hits, text);
  }
  if (inv.name === "cd" || inv.name === "pushd") {
    const target = operands(inv.args)[0];
    const back = inv.args.some((a) => a.value === "-");
    const value = target ? target.value : back ? "-" : HOME_TOKEN;
    if (value !== undefined && value !== "-") {
      const landing = cdEscapeTarget(value, scope);
      if (landing !== undefined)
        hits.push({ rule: "cwd-escape", text, reason: `${inv.name} leaves the workspace for ${landing}` });
    }
  }
  checkInteractive(inv, hits);
  if (SCRIPT_RUNNERS.has(inv.name)) {
    const dashC = inv.args.findIndex((a) => a.value === "-c");
    const script = dashC >= 0 ? inv.args[dashC + 1]?.value : undefined;
    if (script !== undefined && ["bash", "sh", "dash", "zsh", "ksh"].includes(inv.name))
      nested.push({ script, scope });
    if (inv.args.some((a) => containsDownload(a.node))) {
      hits.push({
        rule: "download-to-shell",
        text,
        reason: `${inv.name} runs code fetched from the network`,
      });
    }
  }
  if (inv.name === "eval") {
    const all = inv.args.map((a) => a.value);
    if (all.every((v) => v !== undefined)) nested.push({ script: all.join(" "), scope });
  }
  const inner = unwrap(inv);
  if (inner) checkInvocation(inner, scope, config, hits, nested);
}

function checkInteractive(inv: Invocation, hits: PolicyHit[]): void {
  const text = inv.node.text;
  const f = flags(inv.args);
  const ops = operands(inv.args);
  if (EDITORS_AND_PAGERS.has(inv.name)) {
    if (inv.name === "top" && f.some((x) => x.startsWith("-b"))) return;
    if (inv.name === "emacs" && f.includes("--batch")) return;
    if (f.some((x) => x === "--version" || x === "--help")) return;
    hits.push({
      rule: "interactive-program",
      text,
      reason: `${inv.name} is interactive and would wait for a terminal`,
    });
    return;
  }
  if (REPLS.has(inv.name) && inv.args.length === 0 && !inv.stdinFed) {
    hits.push({
      rule: "interactive-program",
      text,
      reason: `${inv.name} without arguments starts an interactive session`,
    });
    return;
  }
  if (
    inv.name === "tail" &&
    f.some((x) => /^-[a-zA-Z]*[fF]/.test(x) || x === "--follow" || x.startsWith("--follow="))
  ) {
    hits.push({
      rule: "interactive-program",
      text,
      reason: "tail -f never exits; read the file or use background: true",
    });
    return;
  }
  if (inv.name === "git") {
    const sub = ops[0]?.value;
    if (sub === "rebase" && f.some((x) => x === "-i" || x === "--interactive")) {
      hits.push({ rule: "interactive-program", text, reason: "git rebase -i opens an editor" });
    } else if (sub === "add" && f.some((x) => ["-i", "-p", "--patch", "--interactive"].includes(x))) {
      hits.push({ rule: "interactive-program", text, reason: "git add -p/-i asks questions interactively" });
    }
  }
}

function containsDownload(node: SyntaxNode): boolean {
  for (const cmd of descendantsOfType(node, new Set(["command"]))) {
    const inv = toInvocation(cmd);
    if (inv && (DOWNLOADERS.has(inv.name) || DOWNLOADERS.has(unwrap(inv)?.name ?? ""))) return true;
  }
  return false;
}

/**
 * Whether an interpreter at the end of a pipe runs what arrives on stdin as code: `sh`,
 * `bash -s`, `python3`, `python3 -` do; `python3 -m json.tool`, `bash -c '...'`, `node script.js`
 * read it as data.
 */
function readsProgramFromStdin(inv: Invocation): boolean {
  for (const arg of inv.args) {
    const v = arg.value;
    if (v === undefined) return false;
    if (v === "-s" || v === "-") return true;
    // Shells take code with -c (also in a cluster like -ec); interpreters with -c/-m/-e/-r.
    const codeFlag = SHELLS.has(inv.name) ? /^-[a-zA-Z]*c[a-zA-Z]*$/ : /^-([a-zA-Z]*[cme]|E|r)$/;
    if (codeFlag.test(v)) return false;
    if (!v.startsWith("-")) return false; // a script file: stdin is its input
  }
  return true;
}

function checkPipeline(pipeline: SyntaxNode, hits: PolicyHit[]): void {
  let download = false;
  for (const stage of pipeline.namedChildren) {
    if (!stage) continue;
    const cmd = stage.type === "command" ? stage : descendantsOfType(stage, new Set(["command"]))[0];
    if (!cmd) continue;
    const inv = toInvocation(cmd);
    if (!inv) continue;
    const effective = unwrap(inv) ?? inv;
    if (download && SCRIPT_RUNNERS.has(effective.name) && readsProgramFromStdin(effective)) {
      hits.push({
        rule: "download-to-shell",
        text: pipeline.text,
        reason: `output of a download is piped into ${effective.name}`,
      });
      return;
    }
    if (DOWNLOADERS.has(inv.name) || DOWNLOADERS.has(effective.name)) download = true;
  }
}

const COMMAND_TYPES = new Set(["command"]);
const REDIRECT_TYPES = new Set(["file_redirect"]);
const PIPELINE_TYPES = new Set(["pipeline"]);
const LOOP_TYPES = new Set(["for_statement"]);

/** What one pass over a bash command finds: policy hits and commands that read the closed stdin. */
export interface BashFindings {
  hits: PolicyHit[];
  inputReaders: InputReader[];
}

/**
 * Runs the bash rules over `command` parsed by tree-sitter-bash: every command node (inside
 * pipelines, lists, subshells, substitutions), every file redirect, every pipeline. Scripts in
 * `bash -c '...'` and `eval` with literal arguments are parsed and checked too. The same pass
 * notes the commands that would read the closed stdin (`read`, `select`, `apt-get install`).
 */
export async function checkBashCommand(
  command: string,
  scope: PolicyScope,
  config: PolicyConfig,
  depth = 0,
): Promise<BashFindings> {
  const hits: PolicyHit[] = [];
  const inputReaders: InputReader[] = [];
  const nested: NestedScript[] = [];
  await withSyntaxTree("bash", command, (root) => {
    const scopeAt = bashScopeAt(root, scope);
    for (const cmd of descendantsOfType(root, COMMAND_TYPES)) {
      const inv = toInvocation(cmd);
      if (!inv) continue;
      checkInvocation(inv, scopeAt(cmd.startIndex), config, hits, nested);
      const reader = inputReaderOf(unwrap(inv) ?? inv);
      if (reader) inputReaders.push(reader);
    }
    for (const loop of descendantsOfType(root, LOOP_TYPES)) {
      const reader = selectReaderOf(loop, stdinFedAt(loop));
      if (reader) inputReaders.push(reader);
    }
    for (const redirect of descendantsOfType(root, REDIRECT_TYPES)) {
      const operator = redirect.children.find((c) => c && !c.isNamed && /[<>]/.test(c.type))?.type;
      if (operator !== ">" && operator !== ">|" && operator !== "&>") continue;
      const destination = redirect.childForFieldName("destination");
      if (!destination || destination.type === "number") continue;
      const here = scopeAt(redirect.startIndex);
      checkWriteTarget(bashWord(destination), `redirect ${operator}`, here, config, hits, redirect.text);
    }
    for (const pipeline of descendantsOfType(root, PIPELINE_TYPES)) checkPipeline(pipeline, hits);
  });
  if (depth < MAX_NESTING) {
    for (const inner of nested) {
      const found = await checkBashCommand(inner.script, inner.scope, config, depth + 1);
      hits.push(...found.hits);
      inputReaders.push(...found.inputReaders);
    }
  }
  return { hits, inputReaders };
}
