import { ARGUMENT_PROBLEMS_SHOWN, ERROR_TEXT_MAX_CHARS, QUOTED_INPUT_MAX_CHARS } from "@tackle/agent-core";
import { PATH_LIMITS } from "@tackle/session";

/**
 * The one table of limits. Tool descriptions, model-facing notices and
 * docs import these numbers; a test checks that every number a description states is one of them.
 */
export const DEFAULTS = {
  /** apply_patch: kept lines a hunk is asked to give before and after each change (as Codex asks). */
  patchContextLines: 3,
  /** Lines a tool result shows before it is cut. */
  maxLines: 2000,
  /** Bytes a tool result shows before it is cut (50 KB). */
  maxBytes: 50 * 1024,
  /** grep: matches returned per call. */
  grepLimit: 100,
  /** grep: characters kept of one matching line. */
  grepMaxLineLength: 500,
  /**
   * grep: most lines of context before and after a match. More is a read of the file around
   * the match, and an unbounded number would make the search keep that many lines of every file
   * in memory.
   */
  grepMaxContext: 40,
  /**
   * grep/find: characters of a pattern or glob. A search expression is a few dozen characters;
   * far longer ones are no search (and over 128 KB no process can even be given them).
   */
  searchPatternMaxChars: 4096,
  /**
   * Path policy: bytes of one name in a path (UTF-8; UTF-16 units on Windows). ext4, XFS, btrfs,
   * APFS and NTFS all stop at 255, so a longer name cannot exist and is refused before any I/O.
   */
  pathNameMaxBytes: PATH_LIMITS.nameMaxBytes,
  /** Path policy: bytes of a whole path as sent (Linux refuses paths of PATH_MAX = 4096 and more). */
  pathMaxBytes: PATH_LIMITS.maxBytes,
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
  /**
   * bash/powershell: bytes of one command's output kept in its artifact (256 MB), enforced where
   * the output is written (this machine's /tmp, the remote host, the container). Far above any
   * build or test log worth reading (those run to a few MB), far below what fills a disk: a
   * runaway `yes` writes about 1 GB per second. Past it the artifact keeps the first and the
   * last 128 MB and the command runs on to its end or its timeout.
   */
  shellOutputMaxBytes: 256 * 1024 * 1024,
  /** Argument problems a validation error lists before it only counts the rest. */
  argumentProblemsShown: ARGUMENT_PROBLEMS_SHOWN,
  /** Characters of an input quoted in an error message before it is cut (its length is stated). */
  quotedInputMaxChars: QUOTED_INPUT_MAX_CHARS,
  /** Characters of any error message before it is cut. */
  errorTextMaxChars: ERROR_TEXT_MAX_CHARS,
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
