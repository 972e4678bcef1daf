/**
 * PowerShell code that waits for an answer. The tools run `pwsh -NonInteractive` with stdin
 * closed: `Read-Host`, `Get-Credential` and the host's prompt methods then fail ("PowerShell is
 * in NonInteractive mode. Read and Prompt functionality is not available."), `[Console]::ReadKey`
 * fails for want of a console, and `[Console]::ReadLine()` quietly returns `$null`. Found in the
 * parse the policy already makes, so the result can say which one waited and how to pass the
 * answer instead.
 */
import type { SyntaxNode } from "./parser.js";
import type { InputReader } from "./types.js";

/** Commands longer than this are not repeated in an example. */
const EXAMPLE_MAX_CHARS = 80;

/** Cmdlets (and the `pause` function) that ask at the terminal: how to do without each. */
const PROMPTING_COMMANDS: Readonly<Record<string, (text: string) => string>> = {
  "read-host": (text) =>
    `put the answer in the script instead of asking, e.g. \`$answer = 'y'\` in place of \`${example(text)}\`, or take it from a parameter or an environment variable ($env:NAME)`,
  "get-credential": () =>
    "build the credential without asking: `[pscredential]::new('user', (ConvertTo-SecureString $env:PASSWORD -AsPlainText -Force))`",
  pause: () => "leave it out: nobody can press Enter",
};

/** Receivers of prompt methods: the host's UI and the console. */
const PROMPT_RECEIVERS = new Set(["$host.ui", "$host.ui.rawui", "[console]", "[system.console]"]);

/** Methods on those receivers that read a key, a line or an answer. */
const PROMPT_METHODS = new Set([
  "readline",
  "readlineassecurestring",
  "readkey",
  "prompt",
  "promptforchoice",
  "promptforcredential",
]);

/** The reader a command invocation is, when it is a prompting cmdlet (`name` lower-case, no `.exe`). */
export function powershellCommandReader(name: string, text: string): InputReader | undefined {
  const answer = PROMPTING_COMMANDS[name];
  if (answer === undefined) return undefined;
  return { command: displayName(name), text, answer: answer(text) };
}

/** The reader a method call is, when it reads from the host or console (`$Host.UI.ReadLine()`). */
export function powershellMethodReader(node: SyntaxNode): InputReader | undefined {
  if (node.type !== "invokation_expression") return undefined;
  const [receiver, member] = node.namedChildren;
  if (!receiver || member?.type !== "member_name") return undefined;
  const method = member.text.toLowerCase();
  if (!PROMPT_RECEIVERS.has(receiver.text.toLowerCase().replace(/\s+/g, "")) || !PROMPT_METHODS.has(method))
    return undefined;
  return {
    command: `${receiver.text}.${member.text}`,
    text: node.text,
    answer: `put the answer in the script instead of asking, e.g. \`$answer = 'y'\` in place of \`${example(node.text)}\``,
  };
}

function displayName(name: string): string {
  return name === "pause"
    ? "pause"
    : name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function example(text: string): string {
  const line = text.split("\n")[0] as string;
  return line.length <= EXAMPLE_MAX_CHARS && line === text
    ? text
    : `${line.slice(0, EXAMPLE_MAX_CHARS - 3)}...`;
}
