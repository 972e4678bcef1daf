/**
 * The one table of limits. Tool descriptions, model-facing notices and
 * docs import these numbers; a test checks that every number a description states is one of them.
 */
export const DEFAULTS = {
  /** Lines a tool result shows before it is cut. */
  maxLines: 2000,
  /** Bytes a tool result shows before it is cut (50 KB). */
  maxBytes: 50 * 1024,
  /** grep: matches returned per call. */
  grepLimit: 100,
  /** grep: characters kept of one matching line. */
  grepMaxLineLength: 500,
  /** find: paths returned per call. */
  findLimit: 1000,
  /** ls: entries returned per call. */
  lsLimit: 500,
  /** bash/powershell: default timeout in seconds. */
  shellTimeoutSeconds: 120,
  /** bash/powershell: largest timeout a call may ask for, in seconds. */
  shellMaxTimeoutSeconds: 600,
  /** Milliseconds between SIGTERM and SIGKILL. */
  killGraceMs: 2000,
  /** Milliseconds to wait for pipes held by background children after the shell exits. */
  pipeIdleGraceMs: 100,
} as const;

/** Shape of {@link DEFAULTS}; factories accept a partial override. */
export type Defaults = { -readonly [K in keyof typeof DEFAULTS]: number };

/** Formats a byte count the way every tool states it ("50 KB", "1.5 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  return `${Number((bytes / (1024 * 1024 * 1024)).toFixed(1))} GB`;
}
