import { addSpan, type SecretSpan } from "./formats.js";
import type { RedactionSource } from "./source.js";
import { isSecretBareValue, isSecretLiteral } from "./values.js";

/** Last words of a name that make it secret-like on their own (`DB_PASSWORD`, `accessToken`). */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "secret",
  "token",
  "credential",
  "credentials",
  "apikey",
  "auth",
  "authorization",
]);

/** Words before a final `key` that name something other than a secret (`primaryKey`, `publicKey`). */
const PLAIN_KEYS = new Set([
  "public",
  "pub",
  "primary",
  "foreign",
  "sort",
  "cache",
  "partition",
  "hash",
  "range",
  "row",
  "object",
  "map",
  "lookup",
  "unique",
  "routing",
  "query",
  "storage",
  "idempotency",
  "translation",
  "i18n",
  "hot",
  "shortcut",
  "modifier",
  "meta",
  "ctrl",
  "shift",
  "alt",
  "react",
  "dedupe",
  "group",
  "index",
  "cursor",
  "sync",
  "item",
  "list",
]);

/**
 * A name, optionally quoted, then `=`, `:`, `:=` or `=>` (not `==`, `!=`, `<=`, `>=`, `===`).
 * Group 2 is the name; the match ends where the value starts.
 */
const ASSIGNMENT = /(["'`]?)([A-Za-z0-9_$.-]*[A-Za-z0-9_$])\1[ \t]*(?:=>|:=|:|=)(?![=>])[ \t]*/g;

/** Words of a name: `DB_PASSWORD` → db, password; `x-api-key` → x, api, key; `req.auth` → req, auth. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s._$-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** True for a name whose value would be a secret (`API_KEY`, `client_secret`, `--password`). */
export function isSecretName(name: string): boolean {
  if (/^(?:OLD)?PWD$/.test(name)) return false; // the shell's working directories
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last)) return true;
  if (last !== "key") return false;
  const before = words.at(-2);
  return before !== undefined && !PLAIN_KEYS.has(before);
}

/**
 * A value of plain words that holds the name's own last word is a label, not a secret: a header
 * or field name (`proxyAuthorization = 'proxy-authorization'`, `apiKey: "x-api-key"`).
 */
function namesItself(name: string, value: string): boolean {
  const last = nameWords(name).at(-1);
  return (
    last !== undefined && /^[A-Za-z]+(?:[-_ .][A-Za-z]+)*$/.test(value) && value.toLowerCase().includes(last)
  );
}

/** Where a quoted value starting at `open` (a quote) ends: the index of its closing quote, or -1. */
function closingQuote(line: string, open: number): number {
  const quote = line[open];
  for (let i = open + 1; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === quote) return i;
  }
  return -1;
}

/**
 * Literal values assigned to secret-like names in `line`, added to `spans` (which already holds
 * the known formats; an overlapping value is theirs). Quoted values are literals everywhere;
 * unquoted ones are literals in configuration, possible code in output, always code in source.
 */
export function addAssignmentSecrets(line: string, source: RedactionSource, spans: SecretSpan[]): void {
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(line); match !== null; match = ASSIGNMENT.exec(line)) {
    const name = match[2] as string;
    const at = match.index + match[0].length;
    if (!isSecretName(name) || at >= line.length) continue;
    const first = line[at] as string;
    if (first === '"' || first === "'" || first === "`") {
      const close = closingQuote(line, at);
      if (close === -1) continue;
      const value = line.slice(at + 1, close);
      if (isSecretLiteral(value) && !namesItself(name, value))
        addSpan(spans, { start: at + 1, end: close, kind: "assignment" });
      ASSIGNMENT.lastIndex = close + 1;
      continue;
    }
    if (source === "code") continue;
    const bare = /^[^\s"'`]+/.exec(line.slice(at))?.[0] ?? "";
    const value = bare.replace(/[,;]+$/, "");
    const secret =
      (source === "config" ? isSecretLiteral(value) : isSecretBareValue(value)) && !namesItself(name, value);
    if (secret) addSpan(spans, { start: at, end: at + value.length, kind: "assignment" });
    ASSIGNMENT.lastIndex = at + bare.length;
  }
}
