/** Where a command writes, and the signal that stops it (SIGINT/SIGTERM in the binary). */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  signal: AbortSignal;
  /** All of stdin as text, for `tackle tool <name> -` (absent: reading stdin is a usage error). */
  readStdin?(): Promise<string>;
  /**
   * True when stderr is a terminal: live progress (a long command's output, what `tackle run`
   * waits for) goes there only then, so pipes and logs get none of it.
   */
  stderrIsTTY?: boolean;
}
