/**
 * The kinds of secret the redaction engine hides, and the placeholder it writes for each. Every
 * kind is documented in docs/redaction.md; a test checks that list against this one.
 */
export const REDACTION_KINDS = [
  "private-key",
  "aws-access-key",
  "google-api-key",
  "google-oauth-secret",
  "google-oauth-token",
  "azure-storage-key",
  "azure-client-secret",
  "azure-sas",
  "github-token",
  "gitlab-token",
  "slack-token",
  "stripe-key",
  "anthropic-key",
  "openai-key",
  "npm-token",
  "jwt",
  "url-credentials",
  "bearer",
  "basic-auth",
  "assignment",
] as const;

/** One kind of hidden secret (`[REDACTED:<kind>]`). */
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** The placeholder written where a secret of `kind` was. */
export function redactedPlaceholder(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Any placeholder the engine writes (`[REDACTED:aws-access-key]`). Global: reset `lastIndex` or use
 * `matchAll`/`match`.
 */
export const REDACTED_PLACEHOLDER = /\[REDACTED:[a-z0-9-]+\]/g;

/** The kind named by a placeholder (`[REDACTED:jwt]` → `jwt`). */
export function placeholderKind(placeholder: string): string {
  return placeholder.slice("[REDACTED:".length, -1);
}
