/**
 * Commands that wait for an answer on stdin. The tools run commands with stdin closed, so such
 * a command gets end-of-file at once (or stalls) and usually prints nothing: bash's `read -p`
 * does not even show its prompt without a terminal. Found in the parse the policy already
 * makes, so the result can say which command waited and how to pass the answer.
 */
import { flags, type Invocation } from "./bash-invocation.js";
import type { Word } from "./bash-words.js";
import type { SyntaxNode } from "./parser.js";
import { PROMPTING_PROGRAMS } from "./rule-data.js";
import type { InputReader } from "./types.js";

/** Commands longer than this are not repeated in an example. */
const EXAMPLE_MAX_CHARS = 80;

function example(text: string, fallback: string): string {
  return text.length <= EXAMPLE_MAX_CHARS && !text.includes("\n") ? text : fallback;
}

/** A single-letter flag, alone or in a cluster (`-y`, `-qy`), or a long one exactly. */
function hasFlag(given: readonly string[], wanted: readonly string[]): boolean {
  return wanted.some((flag) =>
    /^-[a-zA-Z]$/.test(flag)
      ? given.some((g) => /^-[a-zA-Z]+$/.test(g) && g.includes(flag.slice(1)))
      : given.some((g) => g === flag || g.startsWith(`${flag}=`)),
  );
}

/**
 * The input `inv` waits for, when it reads the closed stdin: the `read` builtin (not with `-u`
 * or fed by a pipe or redirect), or a program known to ask (apt-get without -y, rm -i, ...).
 */
export function inputReaderOf(inv: Invocation): InputReader | undefined {
  if (inv.stdinFed) return undefined;
  const question = stdinQuestion(inv.name, inv.args, inv.node.text);
  return question && { command: question.command, text: inv.node.text, answer: question.answer };
}

/**
 * Whether a command named `name` (a base name) with these arguments asks on stdin, and how to run
 * it without the question; `text` is its source, quoted in the advice. Reads only the argument
 * values, so the fast path (`plain-command.ts`) asks it about words it split itself.
 */
export function stdinQuestion(
  name: string,
  args: readonly Pick<Word, "value">[],
  text: string,
): { command: string; answer: string } | undefined {
  const given = flags(args);
  if (name === "read") {
    // -u N reads another descriptor; -t 0 only tests whether input is waiting.
    if (hasFlag(given, ["-u"])) return undefined;
    return {
      command: "read",
      answer: `give it the answer on stdin, e.g. \`${example(text, "read ...")} <<< 'y'\`, or pipe it into the script that reads it (\`printf 'y\\n' | ./script.sh\`)`,
    };
  }
  const program = PROMPTING_PROGRAMS[name];
  if (!program) return undefined;
  const sub = args.find((a) => a.value !== undefined && !a.value.startsWith("-"))?.value;
  if (program.subcommands && (sub === undefined || !program.subcommands.has(sub))) return undefined;
  if (program.asksWith) {
    if (!hasFlag(given, program.asksWith)) return undefined;
  } else if (program.quiet && hasFlag(given, program.quiet)) {
    return undefined;
  }
  return { command: name, answer: program.answer };
}

/** A `select` menu reads its choice from stdin, unless the statement is fed by a pipe or redirect. */
export function selectReaderOf(node: SyntaxNode, stdinFed: boolean): InputReader | undefined {
  if (node.type !== "for_statement" || node.children[0]?.type !== "select" || stdinFed) return undefined;
  return {
    command: "select",
    text: node.text,
    answer: `pipe the choice's number in, e.g. \`printf '1\\n' | ${example(node.text, "select ... done")}\``,
  };
}
