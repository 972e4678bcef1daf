/**
 * Tag for shell text kept in TypeScript. The raw text is used (a `\0` or `\n` in a printf
 * format reaches the shell as written) and `\${` loses its backslash (it is escaped only to keep
 * it out of JavaScript interpolation). Interpolating a value throws: values reach a script as
 * positional arguments, never as text.
 */
export function shellText(strings: TemplateStringsArray, ...values: never[]): string {
  if (values.length > 0) throw new Error("shellText: values go in as arguments, not interpolations");
  return strings.raw.join("").replaceAll("\\${", "${");
}

/** Quotes one argument for a POSIX shell command line. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
