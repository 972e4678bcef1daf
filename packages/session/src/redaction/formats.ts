import type { RedactionKind } from "./kinds.js";
import { isSecretLiteral, refersElsewhere } from "./values.js";

/** Where a secret sits in a line: `[start, end)` in UTF-16 units, and its kind. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: RedactionKind;
}

interface SecretFormat {
  kind: RedactionKind;
  /** Global pattern. With `group`, only that capture is the secret (the rest stays visible). */
  pattern: RegExp;
  group?: number;
  /** Extra test of the secret itself (e.g. not a placeholder). */
  accept?: (secret: string) => boolean;
}

/** A bearer credential, not `Bearer authentication`, `Bearer <token>` or a template. */
function credentialToken(token: string): boolean {
  return isSecretLiteral(token);
}

/** Base64 that decodes to printable `user:password` (a Basic authorization header's value). */
function basicCredentials(token: string): boolean {
  const decoded = Buffer.from(token, "base64").toString("latin1");
  return /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded);
}

/**
 * Vendors' documented token formats, hidden wherever they appear (code, config, output). Order
 * matters where formats nest: Anthropic's `sk-ant-` before OpenAI's `sk-`. Lengths are the
 * vendors' (or a floor under them), so a prefix alone in code (`"sk-"`, `'ghp_'`) stays.
 */
const FORMATS: SecretFormat[] = [
  { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}\b/g },
  { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: "google-oauth-secret", pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g },
  { kind: "google-oauth-token", pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  {
    kind: "azure-storage-key",
    pattern: /\b((?:Account|SharedAccess)Key=)([A-Za-z0-9+/]{40,}={0,2})/g,
    group: 2,
  },
  {
    kind: "azure-client-secret",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  { kind: "azure-sas", pattern: /([?&]sig=)([A-Za-z0-9%+/=]{30,})/g, group: 2 },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: "gitlab-token", pattern: /\bgl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,}/g },
  { kind: "slack-token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: "stripe-key", pattern: /\b(?:[rs]k_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,})\b/g },
  { kind: "anthropic-key", pattern: /\bsk-ant-[a-z]{3,6}\d{2}-[A-Za-z0-9_-]{20,}/g },
  { kind: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: randomEnough },
  { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: "url-credentials",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]*:)([^\s@/"'`]+)(@)/gi,
    group: 2,
    accept: (secret) => !/^(?:pass|pwd)$/i.test(secret) && !refersElsewhere(secret),
  },
  { kind: "bearer", pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/g, group: 2, accept: credentialToken },
  {
    kind: "basic-auth",
    pattern: /\b(Basic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    group: 2,
    accept: basicCredentials,
  },
];

/** `sk-` followed by lowercase words (`sk-this-is-not-a-real-key`) is prose, not a key. */
function randomEnough(secret: string): boolean {
  return !/^sk-[a-z]+(?:-[a-z]+)+$/.test(secret);
}

/** Text holding none of these cannot hold a known format: one scan instead of one per format. */
export const FORMAT_HINT =
  /AKIA|ASIA|ABIA|ACCA|AROA|AIDA|AIza|GOCSPX|ya29\.|Key=|Q~|sig=|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt)-|xox|k_live_|k_test_|whsec_|sk-|npm_|eyJ|:\/\/|Bearer|Basic/;

/** Known-format secrets in `line`, in order, not overlapping. */
export function findFormatSecrets(line: string): SecretSpan[] {
  if (!FORMAT_HINT.test(line)) return [];
  const spans: SecretSpan[] = [];
  for (const format of FORMATS) {
    format.pattern.lastIndex = 0;
    for (const match of line.matchAll(format.pattern)) {
      const secret = format.group === undefined ? match[0] : (match[format.group] as string);
      if (format.accept && !format.accept(secret)) continue;
      const start = (match.index as number) + (format.group === undefined ? 0 : match[0].lastIndexOf(secret));
      addSpan(spans, { start, end: start + secret.length, kind: format.kind });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Adds `span` unless it overlaps one already found (the earlier, more specific format wins). */
export function addSpan(spans: SecretSpan[], span: SecretSpan): boolean {
  if (spans.some((other) => span.start < other.end && other.start < span.end)) return false;
  spans.push(span);
  return true;
}
