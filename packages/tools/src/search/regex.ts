import { OperationError } from "@tackle/operations";

/** How a grep pattern is read. */
export interface PatternOptions {
  /** Match the text as written (no regular expression syntax). */
  literal?: boolean;
  ignoreCase?: boolean;
}

/**
 * Compiles a grep pattern into a JavaScript RegExp for one line at a time. Unicode mode first
 * (closest to ripgrep's Rust syntax: `\p{L}`, code points); a pattern only the legacy syntax
 * accepts (e.g. `\-` outside a class) is compiled without it. An invalid pattern throws an
 * `invalid_argument` OperationError carrying the engine's message, the same code a native search
 * rejects with.
 */
export function compilePattern(pattern: string, options: PatternOptions = {}): RegExp {
  const source = options.literal ? escapeRegExp(pattern) : pattern;
  const flags = options.ignoreCase ? "i" : "";
  try {
    return new RegExp(source, `${flags}u`);
  } catch (unicodeError) {
    try {
      return new RegExp(source, flags);
    } catch {
      const message = unicodeError instanceof Error ? unicodeError.message : String(unicodeError);
      throw new OperationError("invalid_argument", message, { cause: unicodeError, operation: "grep" });
    }
  }
}

/** Escapes every character that has a meaning in a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
