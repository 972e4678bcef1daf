/** Quotes one word for a POSIX shell (the remote login shell and `sh`). */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
