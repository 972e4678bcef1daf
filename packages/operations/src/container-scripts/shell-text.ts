/**
 * Template tag for shell script text kept in TypeScript: the text is taken raw (so `\0` and `\n`
 * reach the shell's printf intact) and shell expansions written `\${...}` (escaped to stay out of
 * JS interpolation) lose the backslash. Interpolation itself is refused: values reach a script
 * only as positional arguments, never spliced into its text.
 *
 * @example
 * ```ts
 * const script = shellText`printf '%s\n' "\${1:-none}"`;
 * ```
 */
export function shellText(strings: TemplateStringsArray, ...values: never[]): string {
  if (values.length > 0) throw new Error("shellText: pass values as arguments, not interpolations");
  return strings.raw.join("").replaceAll("\\${", "${");
}

/** Quotes one argument for a POSIX shell command line. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
