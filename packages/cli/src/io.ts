/** Where a command writes, and the signal that stops it (SIGINT/SIGTERM in the binary). */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  signal: AbortSignal;
}
