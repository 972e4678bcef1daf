import type { InputReader } from "./policy-contract.js";

/**
 * Interactive-prompt detection. A command waiting for an answer on the closed stdin either
 * hangs silently (the prompt is the last thing it printed) or fails at once with a "no input"
 * error. Both get the same advice: run it non-interactively.
 */

/** Last-line shapes of a question waiting for an answer. */
const PROMPT_PATTERNS: RegExp[] = [
  /\[(y|Y)\/(n|N)\]\s*[:?]?\s*$/,
  /\((y|Y)\/(n|N)\)\s*[:?]?\s*$/,
  /\(yes\/no(\/\[fingerprint\])?\)\??\s*[:?]?\s*$/i,
  /\[yes\/no\]\s*[:?]?\s*$/i,
  /\b(password|passphrase|passcode)( for .+)?:\s*$/i,
  /\bpress (enter|return|any key)\b.*$/i,
  /\b(username|user name|login)( for .+)?:\s*$/i,
  /\bcontinue\?\s*$/i,
  /\bare you sure\b.*\?\s*$/i,
  /\b(overwrite|replace|remove|delete)\b.*\?\s*(\[[^\]]*\])?\s*$/i,
  /\(Y\/n\)\s*$/,
  /^\?\s.+[?›:]\s*.*$/, // inquirer-style "? Project name: "
];

/** Errors of programs that needed a terminal or input and found the closed stdin. */
const CLOSED_STDIN_PATTERNS: RegExp[] = [
  /EOF when reading a line/,
  /Inappropriate ioctl for device/i,
  /\bnot a (tty|terminal)\b/i,
  /input device is not a TTY/i,
  /stdin is not a (tty|terminal)/i,
  /no tty present/i,
  /a terminal is required/i,
  /unable to read (from )?(stdin|input)/i,
  /cannot prompt/i,
  /Aborted by user|aborting, no input/i,
  // pwsh -NonInteractive: Read-Host, Get-Credential, $Host.UI prompts.
  /NonInteractive mode\. Read and Prompt functionality is not available/i,
  // [Console]::ReadKey() without a console.
  /Cannot read keys when either application does not have a console/i,
];

/** The last non-empty line of `text`, trimmed of trailing whitespace only. */
export function lastLine(text: string): string {
  const trimmed = text.replace(/\s+$/, "");
  const at = trimmed.lastIndexOf("\n");
  return at === -1 ? trimmed : trimmed.slice(at + 1);
}

/** The prompt line when the output ends with a question waiting for input, else undefined. */
export function detectPrompt(tailText: string): string | undefined {
  // A prompt is printed without a newline, or with one; trailing spaces are typical.
  const line = lastLine(tailText);
  if (line.length === 0 || line.length > 300) return undefined;
  return PROMPT_PATTERNS.some((p) => p.test(line)) ? line : undefined;
}

/** True when the output says the command wanted input or a terminal it did not get. */
export function wantedInput(tailText: string): boolean {
  const recent = tailText.slice(-4096);
  return CLOSED_STDIN_PATTERNS.some((p) => p.test(recent)) || detectPrompt(recent) !== undefined;
}

/** The prompt bash's `select` prints when PS3 is not set. */
export const SELECT_PROMPT = "#?";

/**
 * What the model is told when the command's parse names the commands that waited: each one
 * and how to give it its answer.
 */
export function waitedForInputHint(readers: readonly InputReader[]): string {
  return `It waited for input that cannot come: stdin is closed and nobody can type an answer. ${answers(readers)}`;
}

/**
 * What the model is told when the command failed after printing something and its parse names
 * commands that read the closed stdin: they got end-of-file (an empty answer), which may or may
 * not be why it failed, so it is said as a condition.
 */
export function readClosedStdinHint(readers: readonly InputReader[]): string {
  return `It read stdin, which is closed, and got an empty answer (end-of-file). If it failed for want of that answer: ${answers(readers)}`;
}

/** Each reader and how to give it its answer. */
export function answers(readers: readonly InputReader[]): string {
  return readers.map((reader) => `\`${shortText(reader.text)}\` reads it: ${reader.answer}.`).join(" ");
}

function shortText(text: string): string {
  const line = text.split("\n")[0] as string;
  return line.length > 80 || line !== text ? `${line.slice(0, 77)}...` : line;
}

/** What the model is told to do instead. */
export const NON_INTERACTIVE_HINT =
  "Retry non-interactively: pass the tool's yes/batch flag (e.g. -y, --yes, --non-interactive, --batch), " +
  "use --no-pager or pipe to cat, set CI=1, or provide input explicitly (e.g. `yes | cmd`, `cmd < file`). " +
  "stdin is closed and nobody can type an answer.";
