/**
 * The fast path of the bash policy, for the commands agents send most (`npm test`,
 * `pnpm build && pnpm test`, `ls -la | head`): plain words joined by `&&`, `||`, `;` and `|`,
 * no command named in {@link BASH_RULE_COMMANDS} and none that asks on stdin ({@link stdinQuestion}:
 * `read`, `apt-get install` without -y, ...). Such a command hits no rule and has no reader of
 * the closed stdin, which is what the grammar path finds for it too, so it is decided without
 * the parser: the first check in a process then loads no WASM (the runtime and the bash grammar
 * cost tens of milliseconds and about 9 MB on Node 22). Anything else (quotes, `$`, redirects,
 * globs, `~`, keywords, assignments, a newline) goes to the grammar. `test/plain-command.test.ts`
 * checks the two paths agree, on generated commands and on a corpus.
 */
import { stdinQuestion } from "./bash-input.js";
import { BASH_RULE_COMMANDS } from "./bash-rule-names.js";
import { commandBaseName } from "./bash-words.js";

/**
 * A word the shell takes literally: no quoting, expansion, glob, redirect, comment, brace or
 * history character, so its text is its value and it is one word.
 */
const LITERAL_WORD = /^[A-Za-z0-9_./:=,+%-]+$/;

/** Operators between commands; a lone `&`, `|&` and `;;` are not among them. */
const SEPARATOR = /\s*(?:&&|\|\||;|\|)\s*/;

/** Words the grammar reads as syntax at a command's start (`if`, `for`, ...) or as declarations. */
const RESERVED: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "coproc",
  "declare",
  "typeset",
  "export",
  "readonly",
  "local",
  "unset",
]);

/** Longest command the fast path reads; a longer one is rare enough to parse. */
const MAX_CHARS = 2000;

/**
 * True when `command` is plain words in plain commands, none named by a rule: its bash verdict
 * is `allow` with no hits and no stdin readers, without parsing. False means "parse it", never
 * "it hits a rule".
 */
export function isPlainBashCommand(command: string): boolean {
  if (command.length > MAX_CHARS || /[^\S \t]/.test(command)) return false;
  let text = command.trim();
  if (text.endsWith(";")) text = text.slice(0, -1).trimEnd();
  if (text === "") return false;
  for (const part of text.split(SEPARATOR)) {
    const words = part.split(/[ \t]+/);
    const name = words[0];
    if (name === undefined || name === "" || name.includes("=")) return false;
    if (!words.every((word) => LITERAL_WORD.test(word))) return false;
    const base = commandBaseName(name);
    if (RESERVED.has(name) || BASH_RULE_COMMANDS.has(base)) return false;
    const args = words.slice(1).map((value) => ({ value }));
    if (stdinQuestion(base, args, part) !== undefined) return false;
  }
  return true;
}
