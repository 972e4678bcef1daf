/**
 * The temp files of atomic writes, named one way on every adapter. `writeFile` writes a temp file
 * next to its target and renames it over the target; a writer killed in between (SIGKILL, a
 * dropped connection, a stopped container) leaves the temp file behind. Its name says who wrote
 * it, so the next write to that directory can tell a dead writer's leftover from a write still
 * in progress, and the tools can keep these names out of what they list.
 *
 * Shape: `.<target>.tackle-<domain>-<pid>-<start>-<random>.tmp`
 * - `target`: the target's name (cut to {@link TEMP_TARGET_MAX_BYTES}, possibly empty), only for
 *   people reading a directory listing;
 * - `domain`: 12 hex digits naming the process table the writer ran in (boot and pid namespace,
 *   see {@link tempFileDomain}), so a pid is only ever compared within the table it came from;
 * - `pid` and `start`: the writing process and its start time (clock ticks since boot, field 22
 *   of `/proc/PID/stat`; `0` where that is unknown), so a reused pid is not taken for the writer;
 * - `random`: 16 hex digits, so nobody can predict the name and plant a file or link there.
 */

/** Who created a temp file: a process, identified across pid reuse. */
export interface TempFileOwner {
  /** Process table of the writer: {@link tempFileDomain} of its boot id and pid namespace. */
  domain: string;
  /** Pid of the writer within that table. */
  pid: number;
  /** Start time of the writer (decimal clock ticks since boot), `"0"` when unknown. */
  start: string;
}

/** A temp file name taken apart. */
export interface ParsedTempFileName {
  /** The target name as recorded (cut when it was long; empty when it did not fit). */
  target: string;
  owner: TempFileOwner;
}

/** Longest target name (UTF-8 bytes) kept in a temp name; the whole name stays under NAME_MAX (255). */
export const TEMP_TARGET_MAX_BYTES = 180;

/**
 * How old (by modification time) a temp file of a writer in another process table must be before
 * a sweep removes it. Such a writer cannot be checked: it ran on another host sharing the disk,
 * in a container since restarted, or before a reboot. An hour without a single byte written is
 * far beyond any live write.
 */
export const FOREIGN_TEMP_MAX_AGE_MS = 60 * 60 * 1000;

const TEMP_NAME = /^\.(.*)\.tackle-([0-9a-f]{12})-([0-9]{1,10})-([0-9]{1,20})-([0-9a-f]{16})\.tmp$/s;

/**
 * True when `name` (a bare file name, no directory) is the temp file of an atomic write. The
 * tools leave such names out of ls, find and grep results: they are never the model's files.
 */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** Takes a temp file name apart; `undefined` when `name` is not one. */
export function parseTempFileName(name: string): ParsedTempFileName | undefined {
  const match = TEMP_NAME.exec(name);
  if (!match) return undefined;
  const [, target = "", domain = "", pid = "0", start = "0"] = match;
  return { target, owner: { domain, pid: Number(pid), start } };
}

/**
 * A fresh temp file name for a write to `target` (a bare name) by `owner`. The random part comes
 * from the platform's CSPRNG.
 */
export function tempFileName(target: string, owner: TempFileOwner): string {
  const random = new Uint8Array(8);
  globalThis.crypto.getRandomValues(random);
  const hex = Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `.${cutUtf8(target, TEMP_TARGET_MAX_BYTES)}.tackle-${owner.domain}-${owner.pid}-${owner.start}-${hex}.tmp`;
}

/**
 * The 12-hex-digit domain of a process table: a hash of the kernel's boot id
 * (`/proc/sys/kernel/random/boot_id`) and the pid namespace (`readlink /proc/self/ns/pid`). Two
 * processes compare pids only when their domains are equal.
 */
export function tempFileDomain(bootId: string, pidNamespace: string): string {
  // FNV-1a, 64 bits (as two 32-bit halves): a label, not a secret; no node:crypto needed here.
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (const byte of new TextEncoder().encode(`${bootId.trim()}\n${pidNamespace.trim()}`)) {
    low = (low ^ byte) >>> 0;
    // Multiply by the FNV prime 0x100000001b3 modulo 2^64.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x100000000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return (high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0")).slice(0, 12);
}

/** What a sweep knows about a temp file's writer when it decides. */
export interface TempFileFacts {
  /** The sweeper's own domain (the process table it can inspect). */
  domain: string;
  /**
   * Start time of the process that has the owner's pid now (same format as `TempFileOwner.start`),
   * or `undefined` when no such process runs. Only consulted when the domains match.
   */
  startOfPid: string | undefined;
  /** Milliseconds since the temp file was last modified. */
  ageMs: number;
}

/**
 * True when a temp file was abandoned: its writer ran in this process table and is gone (no
 * process with its pid, or one that started at another time), or it ran elsewhere and the file
 * has not changed for {@link FOREIGN_TEMP_MAX_AGE_MS}. A live writer's file is never abandoned.
 */
export function isAbandonedTempFile(owner: TempFileOwner, facts: TempFileFacts): boolean {
  if (owner.domain !== facts.domain) return facts.ageMs > FOREIGN_TEMP_MAX_AGE_MS;
  return facts.startOfPid !== owner.start;
}

/**
 * Start time (field 22) of a running process from the text of its `/proc/PID/stat`, or
 * `undefined` for a zombie (state `Z` or `X`: it has exited and writes nothing more, though its
 * entry stays until its parent reaps it). The command name (field 2) may hold spaces and
 * parentheses, so fields are counted from its closing parenthesis.
 */
export function runningProcessStart(statText: string): string | undefined {
  const fields = statText.slice(statText.lastIndexOf(")") + 2).split(" ");
  // Field 3 (state) is fields[0], so field 22 is fields[19].
  const [state, start] = [fields[0], fields[19]];
  if (state === "Z" || state === "X") return undefined;
  return start !== undefined && /^[0-9]+$/.test(start) ? start : undefined;
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
function cutUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = encoder.encode(char).length;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
