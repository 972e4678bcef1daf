import { descendantsOfType, type SyntaxNode, withSyntaxTree } from "./parser.js";
import { classifyPath, cwdEscapeTarget, isWritableException } from "./paths.js";
import { powershellCommandReader, powershellMethodReader } from "./powershell-input.js";
import type { InputReader, PolicyConfig, PolicyHit, PolicyScope } from "./types.js";
import { DEFAULT_WRITABLE_PATHS } from "./types.js";

/** A PowerShell command element: a parameter (`-Recurse`) or an argument with its literal value. */
interface Element {
  parameter?: string;
  /** Literal value after quote removal; undefined when it depends on runtime values. */
  value: string | undefined;
  text: string;
  node: SyntaxNode;
}

interface PsInvocation {
  /** Lower-case command name without directory or `.exe`. */
  name: string;
  elements: Element[];
  node: SyntaxNode;
  /** Position in its pipeline (0 = first). */
  stage: number;
}

const HOME = "\u0000home";

/** How deep `pwsh -Command '...'` scripts are parsed again. */
const MAX_NESTING = 3;

const DELETE = new Set(["remove-item", "rm", "del", "erase", "rd", "ri", "rmdir"]);
const SET_LOCATION = new Set(["set-location", "cd", "chdir", "sl", "push-location", "pushd"]);
const DOWNLOAD = new Set([
  "invoke-webrequest",
  "iwr",
  "invoke-restmethod",
  "irm",
  "curl",
  "wget",
  "start-bitstransfer",
]);
const EXECUTE = new Set(["invoke-expression", "iex"]);
const INTERACTIVE = new Set([
  "notepad",
  "vim",
  "vi",
  "nvim",
  "nano",
  "emacs",
  "less",
  "more",
  "edit",
  "read-host",
  "get-credential",
  "out-gridview",
  "htop",
  "top",
]);
const REPLS = new Set([
  "pwsh",
  "powershell",
  "python",
  "python3",
  "node",
  "cmd",
  "bash",
  "irb",
  "psql",
  "sqlite3",
]);
const PRIVILEGE = new Set(["sudo", "gsudo", "runas"]);

function baseName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? name;
  return last.toLowerCase().replace(/\.exe$/, "");
}

/** Literal value of an argument node, `HOME` for the home variables, undefined when dynamic. */
function elementValue(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case "generic_token":
      return node.text;
    case "verbatim_string_literal":
    case "verbatim_string_characters":
      return node.text.slice(1, -1).replaceAll("''", "'");
    case "expandable_string_literal":
      return node.namedChildren.length > 0 ? undefined : node.text.slice(1, -1).replace(/`(.)/g, "$1");
    case "variable": {
      const v = node.text.toLowerCase();
      return v === "$home" || v === "$env:userprofile" || v === "$env:home" ? HOME : undefined;
    }
    case "array_literal_expression":
    case "unary_expression":
    case "string_literal":
      return node.namedChildren.length === 1 && node.namedChildren[0]
        ? elementValue(node.namedChildren[0])
        : undefined;
    default:
      return undefined;
  }
}

function toInvocation(command: SyntaxNode, stage: number): PsInvocation | undefined {
  const nameNode = command.childForFieldName("command_name");
  if (!nameNode) return undefined;
  const rawName = nameNode.type === "command_name_expr" ? nameNode.namedChildren[0]?.text : nameNode.text;
  if (!rawName) return undefined;
  const elements: Element[] = [];
  const list = command.childForFieldName("command_elements");
  for (const child of list?.namedChildren ?? []) {
    if (!child || child.type === "command_argument_sep" || child.type === "redirection") continue;
    if (child.type === "command_parameter") {
      elements.push({
        parameter: child.text.replace(/^-/, "").replace(/:$/, "").toLowerCase(),
        value: undefined,
        text: child.text,
        node: child,
      });
    } else {
      elements.push({ value: elementValue(child), text: child.text, node: child });
    }
  }
  return { name: baseName(rawName.replace(/^['"]|['"]$/g, "")), elements, node: command, stage };
}

/** True when `param` is a prefix (PowerShell's own abbreviation rule) of one of `names`. */
function isParam(param: string | undefined, ...names: string[]): boolean {
  return param !== undefined && param.length > 0 && names.some((n) => n.startsWith(param));
}

/** Values given by name (`-Path x`) or positionally (the first arguments not after a parameter). */
function pathArguments(inv: PsInvocation, names: string[], switches: string[]): Element[] {
  const out: Element[] = [];
  for (let i = 0; i < inv.elements.length; i++) {
    const el = inv.elements[i] as Element;
    if (el.parameter !== undefined) {
      if (
        isParam(el.parameter, ...names) &&
        inv.elements[i + 1] &&
        inv.elements[i + 1]?.parameter === undefined
      ) {
        out.push(inv.elements[i + 1] as Element);
        i++;
      } else if (
        !switches.some((s) => isParam(el.parameter, s)) &&
        inv.elements[i + 1]?.parameter === undefined
      ) {
        i++; // a parameter that takes a value: skip the value
      }
      continue;
    }
    out.push(el);
  }
  return out;
}

function resolveTarget(value: string, scope: PolicyScope): ReturnType<typeof classifyPath> | undefined {
  const path = expandPsHome(value, scope);
  return path === undefined ? undefined : classifyPath(path, scope);
}

/**
 * `$HOME` and `~` prefixes replaced by the home directory; undefined when it is unknown. On a
 * POSIX environment `\` becomes `/`: pwsh there takes both as separators (`Set-Location \` is `/`).
 */
function expandPsHome(value: string, scope: PolicyScope): string | undefined {
  let path = scope.platform === "posix" && !/^[A-Za-z]:/.test(value) ? value.replaceAll("\\", "/") : value;
  if (path === HOME || path.startsWith(`${HOME}/`) || path.startsWith(`${HOME}\\`)) {
    if (!scope.homeDir) return undefined;
    path = scope.homeDir + path.slice(HOME.length);
  } else if (path === "~" || path.startsWith("~/") || path.startsWith("~\\")) {
    if (!scope.homeDir) return undefined;
    path = scope.homeDir + path.slice(1);
  }
  return path;
}

function checkDelete(inv: PsInvocation, scope: PolicyScope, config: PolicyConfig, hits: PolicyHit[]): void {
  if (!DELETE.has(inv.name)) return;
  if (!inv.elements.some((e) => isParam(e.parameter, "recurse"))) return;
  const writable = config.writablePaths ?? DEFAULT_WRITABLE_PATHS;
  for (const target of pathArguments(
    inv,
    ["path", "literalpath"],
    ["recurse", "force", "whatif", "confirm"],
  )) {
    const text = inv.node.text;
    if (target.value === undefined) {
      hits.push({
        rule: "recursive-delete",
        text,
        reason: `recursive delete of ${target.text}, a runtime value`,
      });
      continue;
    }
    const v = target.value.replace(/[\\/]+\*?$/, "") || "/";
    if (["*", "/", "\\", "~", ".", HOME].includes(v) || /^[A-Za-z]:$/.test(v)) {
      hits.push({
        rule: "recursive-delete",
        text,
        reason: `recursive delete of a broad target: ${target.text}`,
      });
      continue;
    }
    const resolved = resolveTarget(v, scope);
    if (!resolved) continue;
    if (resolved.cls === "root-or-above") {
      hits.push({
        rule: "recursive-delete",
        text,
        reason: `recursive delete of ${resolved.resolved}, a workspace root or its parent`,
      });
    } else if (resolved.cls === "outside" && !isWritableException(`${resolved.resolved}/`, writable)) {
      hits.push({
        rule: "recursive-delete",
        text,
        reason: `recursive delete outside the workspace: ${resolved.resolved}`,
      });
    }
  }
}

function checkWrite(
  target: Element | undefined,
  what: string,
  text: string,
  scope: PolicyScope,
  config: PolicyConfig,
  hits: PolicyHit[],
): void {
  if (!target || target.value === undefined) return;
  const lower = target.value.toLowerCase();
  if (lower === "$null" || lower === "nul") return;
  const resolved = resolveTarget(target.value, scope);
  if (!resolved || resolved.cls === "inside") return;
  if (isWritableException(resolved.resolved, config.writablePaths ?? DEFAULT_WRITABLE_PATHS)) return;
  hits.push({
    rule: "overwrite-outside-workspace",
    text,
    reason: `${what} overwrites ${resolved.resolved}, outside the workspace`,
  });
}

function checkInvocation(
  inv: PsInvocation,
  scope: PolicyScope,
  config: PolicyConfig,
  hits: PolicyHit[],
  nested: string[],
): void {
  const text = inv.node.text;
  if (inv.name === "pwsh" || inv.name === "powershell") {
    // `pwsh -Command '<script>'` (or -c): the script is PowerShell too; parse it when literal.
    const at = inv.elements.findIndex((e) => e.parameter === "c" || isParam(e.parameter, "command"));
    const script = at >= 0 ? inv.elements[at + 1] : undefined;
    if (script?.parameter === undefined && script?.value !== undefined) nested.push(script.value);
  }
  if (
    ["get-content", "gc", "cat", "type"].includes(inv.name) &&
    inv.elements.some((e) => e.parameter === "wait")
  ) {
    hits.push({
      rule: "interactive-program",
      text,
      reason: "Get-Content -Wait never exits; read the file or use background: true",
    });
  }
  checkDelete(inv, scope, config, hits);
  if (PRIVILEGE.has(inv.name))
    hits.push({ rule: "privilege-escalation", text, reason: `${inv.name} runs a command elevated` });
  if (["start-process", "saps", "start"].includes(inv.name)) {
    const verb = inv.elements.findIndex((e) => isParam(e.parameter, "verb"));
    if (verb >= 0 && inv.elements[verb + 1]?.value?.toLowerCase() === "runas") {
      hits.push({
        rule: "privilege-escalation",
        text,
        reason: "Start-Process -Verb RunAs starts an elevated process",
      });
    }
  }
  if (inv.name === "out-file" && !inv.elements.some((e) => isParam(e.parameter, "append"))) {
    checkWrite(
      pathArguments(
        inv,
        ["filepath", "path", "literalpath"],
        ["append", "force", "noclobber", "nonewline"],
      )[0],
      "Out-File",
      text,
      scope,
      config,
      hits,
    );
  }
  if (inv.name === "set-content" || inv.name === "sc") {
    checkWrite(
      pathArguments(inv, ["path", "literalpath"], ["force", "nonewline", "passthru"])[0],
      "Set-Content",
      text,
      scope,
      config,
      hits,
    );
  }
  if (SET_LOCATION.has(inv.name)) {
    const target = pathArguments(inv, ["path", "literalpath"], ["passthru"])[0];
    const value = target ? target.value : HOME;
    if (value !== undefined && value !== "-") {
      const path = expandPsHome(value, scope);
      const landing = path === undefined ? undefined : cwdEscapeTarget(path, scope);
      if (landing !== undefined)
        hits.push({ rule: "cwd-escape", text, reason: `${inv.name} leaves the workspace for ${landing}` });
    }
  }
  if (INTERACTIVE.has(inv.name)) {
    hits.push({ rule: "interactive-program", text, reason: `${inv.name} waits for a person at a terminal` });
  } else if (REPLS.has(inv.name) && inv.elements.length === 0 && inv.stage === 0) {
    hits.push({
      rule: "interactive-program",
      text,
      reason: `${inv.name} without arguments starts an interactive session`,
    });
  }
  if (EXECUTE.has(inv.name) && (containsDownload(inv.node) || /DownloadString|DownloadData/i.test(text))) {
    hits.push({
      rule: "download-to-shell",
      text,
      reason: "Invoke-Expression runs code fetched from the network",
    });
  }
}

function containsDownload(node: SyntaxNode): boolean {
  return descendantsOfType(node, new Set(["command"])).some((c) => {
    const inv = toInvocation(c, 0);
    return inv !== undefined && DOWNLOAD.has(inv.name);
  });
}

/** What one pass over a PowerShell command finds: policy hits and code that asks for input. */
export interface PowershellFindings {
  hits: PolicyHit[];
  inputReaders: InputReader[];
}

const INVOCATION_TYPES = new Set(["invokation_expression"]);

/**
 * Runs the PowerShell rules over `command` parsed by tree-sitter-powershell: every command
 * (with PowerShell's aliases and parameter abbreviations), every redirection, every pipeline.
 * Literal scripts in `pwsh -Command '...'` are parsed and checked too. The same pass notes the
 * code that would ask for input (`Read-Host`, `Get-Credential`, `$Host.UI.ReadLine()`).
 */
export async function checkPowershellCommand(
  command: string,
  scope: PolicyScope,
  config: PolicyConfig,
  depth = 0,
): Promise<PowershellFindings> {
  const hits: PolicyHit[] = [];
  const inputReaders: InputReader[] = [];
  const nested: string[] = [];
  await withSyntaxTree("powershell", command, (root) => {
    for (const call of descendantsOfType(root, INVOCATION_TYPES)) {
      const reader = powershellMethodReader(call);
      if (reader) inputReaders.push(reader);
    }
    for (const chain of descendantsOfType(root, new Set(["pipeline_chain"]))) {
      let download = false;
      let stage = 0;
      for (const part of chain.namedChildren) {
        if (part?.type !== "command") continue;
        const inv = toInvocation(part, stage++);
        if (!inv) continue;
        if (download && (EXECUTE.has(inv.name) || REPLS.has(inv.name))) {
          hits.push({
            rule: "download-to-shell",
            text: chain.text,
            reason: `output of a download is piped into ${inv.name}`,
          });
        }
        if (DOWNLOAD.has(inv.name)) download = true;
      }
    }
    for (const cmd of descendantsOfType(root, new Set(["command"]))) {
      const chain = cmd.parent;
      const stage =
        chain?.type === "pipeline_chain"
          ? chain.namedChildren
              .filter((c) => c?.type === "command")
              .findIndex((c) => c?.startIndex === cmd.startIndex)
          : 0;
      const inv = toInvocation(cmd, Math.max(0, stage));
      if (!inv) continue;
      checkInvocation(inv, scope, config, hits, nested);
      const reader = powershellCommandReader(inv.name, cmd.text);
      if (reader) inputReaders.push(reader);
    }
    for (const redirect of descendantsOfType(root, new Set(["redirection"]))) {
      const operator =
        redirect.namedChildren.find((c) => c?.type === "file_redirection_operator")?.text.trim() ?? "";
      if (operator.includes(">>") || !operator.includes(">")) continue;
      const file = redirect.namedChildren.find((c) => c?.type === "redirected_file_name");
      const valueNode = file?.namedChildren.find((c) => c && c.type !== "command_argument_sep");
      if (!valueNode) continue;
      checkWrite(
        { value: elementValue(valueNode), text: valueNode.text, node: valueNode },
        `redirect ${operator}`,
        redirect.text,
        scope,
        config,
        hits,
      );
    }
  });
  if (depth < MAX_NESTING) {
    for (const script of nested) {
      const found = await checkPowershellCommand(script, scope, config, depth + 1);
      hits.push(...found.hits);
      inputReaders.push(...found.inputReaders);
    }
  }
  return { hits, inputReaders };
}
