import type { SecretSpan } from "./formats.js";

/**
 * Private key blocks: the one secret that spans lines. The BEGIN and END lines stay visible (they
 * say a key is there, and are no secret); each body line becomes `[REDACTED:private-key]`. A block
 * starts only at a BEGIN marker that ends its line (a PEM file, a YAML `|` block) and goes on while
 * lines are base64; a marker inside code (`'-----BEGIN RSA PRIVATE KEY-----';`, a parser's regex)
 * starts none. A key on one line
 * (JSON's `"-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----\n"`) has its body hidden
 * between the markers.
 */

const BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** A PEM body line: base64, indentation and a line-end `\r` allowed. */
const BODY = /^(\s*)([A-Za-z0-9+/]+={0,2})\s*$/;
/** An encrypted PEM's header (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`) or a blank line: in the block, shown. */
const HEADER_OR_BLANK = /^\s*(?:[A-Za-z-]+: .*)?$/;
/** After a BEGIN marker: JSON-escaped or real line breaks, then a key body, on the same line. */
const INLINE_BODY = /^((?:\\r|\\n|\s)+)([A-Za-z0-9+/=]{16,}(?:(?:\\r|\\n|\s)+[A-Za-z0-9+/=]+)*)/;

/** Hints for a cheap skip of lines that hold no marker. */
export const PRIVATE_KEY_HINT = /PRIVATE KEY/;

/** True when `line` holds a private key's END marker. */
export function isPrivateKeyEnd(line: string): boolean {
  return END.test(line);
}

/** The span of a body line inside a block, or undefined when `line` is no body line. */
export function privateKeyBodySpan(line: string): SecretSpan | undefined {
  const body = BODY.exec(line);
  if (!body) return undefined;
  const start = (body[1] as string).length;
  return { start, end: start + (body[2] as string).length, kind: "private-key" };
}

/** True for a line that may sit in a block without being secret (encrypted-PEM header, blank). */
export function isPrivateKeyHeader(line: string): boolean {
  return HEADER_OR_BLANK.test(line);
}

/**
 * What a line's BEGIN marker starts: `inline` with the body's span when the key goes on on this
 * line, `block` when the marker ends the line (the body follows), undefined when there is no
 * marker or it is part of code.
 */
export function privateKeyStart(
  line: string,
): { type: "inline"; span: SecretSpan } | { type: "block" } | undefined {
  const begin = BEGIN.exec(line);
  if (!begin) return undefined;
  const after = begin.index + begin[0].length;
  const rest = line.slice(after);
  const inline = INLINE_BODY.exec(rest);
  if (inline) {
    const start = after + (inline[1] as string).length;
    return {
      type: "inline",
      span: { start, end: start + (inline[2] as string).length, kind: "private-key" },
    };
  }
  // Only a marker that ends its line starts a block: `'-----BEGIN … KEY-----'` in code does not.
  return rest.trim() === "" ? { type: "block" } : undefined;
}
