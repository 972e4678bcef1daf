/** Replacement for a redacted secret; names the kind so the model knows something was there. */
function placeholder(kind: string): string {
  return `[REDACTED:${kind}]`;
}

interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** Capture group holding the secret (the rest of the match is kept). Whole match when absent. */
  group?: number;
  /**
   * Text every match of `pattern` contains (tested case-insensitively): text holding no shape's
   * hint is returned before any pattern runs (see {@link MAY_HOLD_SECRET}).
   */
  hint: RegExp;
}

/**
 * Known secret shapes. Token formats are the vendors' documented prefixes; the assignment rule
 * catches `API_KEY=...`, `export GITHUB_TOKEN="..."`, `password: ...` in env dumps and configs.
 */
const SHAPES: SecretShape[] = [
  {
    kind: "private-key",
    hint: /BEGIN /,
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
  },
  {
    kind: "aws-access-key",
    hint: /AKIA|ASIA|ABIA|ACCA/,
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
  },
  {
    kind: "github-token",
    hint: /gh[pousr]_|github_pat_/,
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: "gitlab-token", hint: /glpat-/, pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: "slack-token", hint: /xox[abposr]-/, pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { kind: "openai-key", hint: /sk-/, pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/g },
  { kind: "google-api-key", hint: /AIza/, pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "stripe-key", hint: /k_live_|k_test_/, pattern: /\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}\b/g },
  { kind: "npm-token", hint: /npm_/, pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "jwt", hint: /eyJ/, pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g },
  {
    kind: "url-credentials",
    hint: /:\/\//,
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi,
    group: 2,
  },
  {
    kind: "assignment",
    hint: /KEY|TOKEN|SECRET|PASSW|PWD|CREDENTIAL|AUTH/,
    // NAME=value / NAME: value where NAME ends in a secret word; the value up to whitespace,
    // a closing quote or the end of line. `PWD`/`OLDPWD` are the shell's directories, not secrets.
    pattern:
      /\b(?!(?:OLD)?PWD\b)([A-Za-z0-9_.-]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)\b["']?\s*[:=]\s*["']?)([^\s"'`,;]{4,})/gi,
    group: 2,
  },
  { kind: "bearer", hint: /Bearer/, pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{16,})/g, group: 2 },
];

/** Matches text that holds at least one shape's hint: only such text can hold a secret shape. */
const MAY_HOLD_SECRET = new RegExp(SHAPES.map((shape) => `(?:${shape.hint.source})`).join("|"), "i");

/**
 * False when `text` cannot hold any known secret shape ({@link redactSecrets} would return it
 * unchanged, also for any part of it): one scan for the shapes' hints.
 */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text);
}

/**
 * Replaces known secret shapes with `[REDACTED:<kind>]`. Heuristic: it catches the common
 * formats, not every secret; a tool should still not be pointed at secret stores.
 */
export function redactSecrets(text: string): string {
  // Most text (paths, code, audit fields) holds no hint: one scan instead of one per shape.
  if (!mayHoldSecret(text)) return text;
  let out = text;
  for (const shape of SHAPES) {
    shape.pattern.lastIndex = 0;
    out = out.replace(shape.pattern, (...match: unknown[]) => {
      const whole = match[0] as string;
      if (shape.group === undefined) return placeholder(shape.kind);
      const secret = match[shape.group] as string;
      if (secret.startsWith("[REDACTED:")) return whole;
      // Keep everything but the secret group itself.
      const index = whole.lastIndexOf(secret);
      return `${whole.slice(0, index)}${placeholder(shape.kind)}${whole.slice(index + secret.length)}`;
    });
  }
  return out;
}
