/**
 * Is this literal a secret? The value tests of the redaction engine: a value is hidden for what
 * it is (long, mixed, random-looking), never for the name it is assigned to alone. Expressions,
 * identifiers, references and placeholders are code or configuration, not secrets.
 */

/** Shorter values are never hidden by the assignment rule (known formats have their own lengths). */
export const MIN_SECRET_LENGTH = 6;
/** A value of plain words (letters of one case, or camelCase words) this long or longer is hidden. */
const PLAIN_WORDS_MAX = 16;

/** Whole values that stand for "no secret here" (compared lowercased, quotes already removed). */
const PLACEHOLDER_WORDS = new Set([
  "changeme",
  "change-me",
  "change_me",
  "changeit",
  "password",
  "passwd",
  "secret",
  "token",
  "redacted",
  "example",
  "placeholder",
  "dummy",
  "default",
  "required",
  "optional",
  "undefined",
  "null",
  "none",
  "nil",
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "empty",
  "string",
  "number",
  "boolean",
  "unknown",
]);

/** Values that refer to a secret kept elsewhere, or mark one as missing. */
const REFERENCE =
  /\$\{|\$\(|^\$[A-Za-z_]|\{\{|\{%|<%|#\{|%\(|^%[A-Za-z_]+%$|^<[^>]*>$|^\[[^\]]*\]$|^\*+$|^x{3,}$|^\.{3,}$|^(?:your|my|insert|enter|replace|put)[-_ ]|(?:^|[-_])(?:here|example|placeholder)$|^(?:process\.env|os\.environ|env)\b|^ENC\[|^vault:|^secretsmanager:|^arn:|^ref\+|^!/i;

/** Letters only, in words: `required`, `clientSecret`, `basic_auth`, `Bearer`. */
const WORDS = /^[A-Za-z]+(?:[-_][A-Za-z]+)*$/;
/** A JavaScript-style identifier or a dotted path of them (`authInfo`, `cfg.privateKey`). */
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/;
/** A path on disk (`/etc/ssl/key.pem`, `~/.ssh/id_rsa`, `./keys/dev.key`). */
const FILE_PATH = /^(?:~|\.{1,2})?(?:\/[\w.@-]+)+\/?$/;
/** A number, version or size (`3600`, `1.5`, `v2`, `10m`). */
const NUMBERISH = /^v?\d+(?:[.:]\d+)*[a-z]{0,2}$/i;

/**
 * The pieces of a name-like value: runs of lowercase, capitalised words, uppercase runs, digits.
 * `clientSecret2` → client, Secret, 2; `Xk9mP2` → X, k, 9, m, P, 2.
 */
function segments(value: string): string[] {
  return value.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [];
}

/**
 * True for a run of letters and digits that reads as words (`authInfo`, `sha256Hash`, `hunter`),
 * false for one that reads as random (`Xk9mP2vL8q`): random strings switch case and digits every
 * one or two characters, names every word.
 */
export function readsAsWords(value: string): boolean {
  const parts = segments(value);
  if (parts.length === 0) return false;
  const letters = parts.filter((part) => !/^\d/.test(part));
  if (letters.length === 0) return false;
  const lettersLength = letters.reduce((sum, part) => sum + part.length, 0);
  const digitRuns = parts.length - letters.length;
  // Words have vowels and are not one letter long (a leading prefix such as `kEnumerable` aside);
  // random runs of letters rarely manage either.
  const wordLike = letters.every(
    (part, i) =>
      (part.length >= 2 || (i === 0 && parts[0] === part)) && (part.length < 4 || /[aeiouy]/i.test(part)),
  );
  return (
    wordLike && lettersLength / letters.length >= 3 && digitRuns <= 1 && parts.length * 3 <= value.length
  );
}

/** A placeholder word (`changeme`, `none`) or a reference (`${VAR}`, `<token>`, `process.env.X`), at any length. */
export function refersElsewhere(value: string): boolean {
  return PLACEHOLDER_WORDS.has(value.toLowerCase()) || REFERENCE.test(value);
}

/**
 * True when `value` can refer to a secret but is not one: empty or short, a placeholder
 * (`changeme`, `xxx`, `<token>`, `your-key-here`), a reference (`${VAR}`, `$VAR`, `{{ x }}`,
 * `process.env.X`), a number, a path, a URL (credentials in URLs have their own rule) or prose.
 */
export function isPlaceholderValue(value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH || refersElsewhere(value)) return true;
  if (NUMBERISH.test(value) || FILE_PATH.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  return /\s/.test(value);
}

/**
 * A literal that is a secret when assigned to a secret-like name: not a placeholder, and not
 * plain words shorter than {@link PLAIN_WORDS_MAX} (`auth: required`, `token: github`, `type:
 * clientSecret`). `hunter2-secret`, `s3cr3t`, base64 and hex all are.
 */
export function isSecretLiteral(value: string): boolean {
  if (isPlaceholderValue(value)) return false;
  return !(WORDS.test(value) && value.length < PLAIN_WORDS_MAX);
}

/**
 * An unquoted value in text that may be code (command output, unknown files): a secret only when
 * it cannot be an expression. Calls, indexing, member access and identifiers that read as words
 * (`randomToken()`, `cfg.privateKey`, `authInfo`) are code; a random-looking run (`Xk9mP2vL8q`) or
 * a literal that is no identifier (`hunter2-secret!`, base64) is a secret. The value ends at the
 * first space, so spaced operators (`prefix + name`) never reach this test.
 */
export function isSecretBareValue(value: string): boolean {
  if (!isSecretLiteral(value)) return false;
  if (/[()[\]{}<>]/.test(value)) return false;
  if (IDENTIFIER_PATH.test(value)) return !value.includes(".") && value.length >= 8 && !readsAsWords(value);
  return true;
}
