/**
 * The fast path of the bash policy, for the commands agents send most (`npm test`,
 * `pnpm build && pnpm test`, `ls -la | head`, `grep -rn "TODO" src`, `cd app && npm test`): plain
 * words, quoted or not, joined by `&&`, `||`, `;` and `|`; no command named in
 * {@link BASH_RULE_COMMANDS} but a first `cd` that stays in the workspace, and none that asks on
 * stdin ({@link stdinQuestion}: `read`, `apt-get install` without -y, ...). Such a command hits no rule and has no reader of
 * the closed stdin, which is what the grammar path finds for it too, so it is decided without
 * the parser: the first check in a process then loads no WASM (the runtime and the bash grammar
 * cost tens of milliseconds and about 9 MB on Node 22, and a parsed command longer than about 35
 * characters makes V8 optimise the grammar's lexer: about 50 MB more for a moment and 0.3 s of a
 * background thread). Anything else (`$`, backquotes, escapes, redirects, globs, `~`, keywords,
 * assignments, a quoted command name, a newline) goes to the grammar. `test/plain-command.test.ts`
 * checks the two paths agree, on generated commands and on a corpus.
 */
import { stdinQuestion } from "./bash-input.js";
import { BASH_RULE_COMMANDS } from "./bash-rule-names.js";
import { cdEscapeTarget } from "./bash-rules.js";
import { commandBaseName } from "./bash-words.js";
import type { PolicyScope } from "./types.js";

/**
 * Characters of an unquoted word the shell takes literally: no quoting, expansion, glob, redirect,
 * comment, brace or history character.
 */
const LITERAL_CHAR = /[A-Za-z0-9_./:=,+%-]/;

/**
 * What a double-quoted part may not hold: inside `"..."` bash still expands `$` and backquotes
 * and reads `\` as an escape (and an interactive shell `!`); without them the part is literal.
 */
const EXPANDS_IN_DOUBLE_QUOTES = /[$`\\!]/;

/** One word of a plain command: its value after quote removal, and whether any of it was quoted. */
interface PlainWord {
  value: string;
  quoted: boolean;
}

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
 * True when `command` is plain words in plain commands, none named by a rule (but a first `cd`
 * that stays in the workspace, when `scope` is given): its bash verdict is `allow` with no hits
 * and no stdin readers, without parsing. False means "parse it", never "it hits a rule".
 */
export function isPlainBashCommand(command: string, scope?: PolicyScope): boolean {
  if (command.length > MAX_CHARS || /[^\S \t]/.test(command)) return false;
  const commands = splitPlainCommands(command);
  if (commands === undefined) return false;
  for (const [index, { words, text }] of commands.entries()) {
    const name = words[0];
    // The command's name stays unquoted: its text is the name a rule would be keyed on.
    if (name === undefined || name.quoted || name.value.includes("=")) return false;
    if (index === 0 && name.value === "cd" && scope !== undefined) {
      if (!plainCd(words.slice(1), scope)) return false;
      continue;
    }
    const base = commandBaseName(name.value);
    if (RESERVED.has(name.value) || BASH_RULE_COMMANDS.has(base)) return false;
    if (stdinQuestion(base, words.slice(1), text) !== undefined) return false;
  }
  return true;
}

/**
 * A first `cd DIR` (`cd packages/app && npm test`, the most common shape of an agent's command)
 * that stays in the workspace: one operand, no flag. The commands after it run in DIR, which
 * no rule of theirs reads (none is named by a rule); a second `cd` is left to the grammar, which
 * follows the steps. What the `cwd-escape` rule decides is decided by its own code.
 */
function plainCd(args: PlainWord[], scope: PolicyScope): boolean {
  const operand = args[0];
  if (args.length !== 1 || operand === undefined || operand.value.startsWith("-")) return false;
  return cdEscapeTarget(operand.value, scope) === undefined;
}

/**
 * Splits `command` into its commands (at `&&`, `||`, `;` and `|`, a trailing `;` allowed) and
 * each into words: unquoted literal characters, `'...'` (literal in bash) and `"..."` without
 * {@link EXPANDS_IN_DOUBLE_QUOTES}, in any concatenation. Undefined for anything else (an
 * unclosed quote, an empty command, a lone `&`, any other character outside quotes).
 */
function splitPlainCommands(command: string): { words: PlainWord[]; text: string }[] | undefined {
  const commands: { words: PlainWord[]; text: string }[] = [];
  let words: PlainWord[] = [];
  let start = 0;
  let i = 0;
  const endCommand = (at: number): boolean => {
    if (words.length === 0) return false;
    commands.push({ words, text: command.slice(start, at).trim() });
    words = [];
    return true;
  };
  while (i < command.length) {
    const c = command[i] as string;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    const operator =
      command.startsWith("&&", i) || command.startsWith("||", i) ? 2 : c === ";" || c === "|" ? 1 : 0;
    if (operator > 0) {
      if (!endCommand(i)) return undefined;
      i += operator;
      start = i;
      // Only `;` may end the whole command.
      if (command.slice(i).trim() === "" && c !== ";") return undefined;
      continue;
    }
    let value = "";
    let quoted = false;
    while (i < command.length) {
      const d = command[i] as string;
      if (LITERAL_CHAR.test(d)) {
        value += d;
        i++;
      } else if (d === "'" || d === '"') {
        const close = command.indexOf(d, i + 1);
        if (close === -1) return undefined;
        const inner = command.slice(i + 1, close);
        if (d === '"' && EXPANDS_IN_DOUBLE_QUOTES.test(inner)) return undefined;
        value += inner;
        quoted = true;
        i = close + 1;
      } else if (d === " " || d === "\t" || d === ";" || d === "|" || d === "&") {
        break;
      } else {
        return undefined;
      }
    }
    // A `&` not part of `&&` (background, `|&`, `&>`) reaches here with no word read.
    if (value === "" && !quoted) return undefined;
    words.push({ value, quoted });
  }
  if (words.length > 0) endCommand(command.length);
  return commands.length > 0 ? commands : undefined;
}
