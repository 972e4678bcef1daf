/**
 * The write lock of a conditional write (`WriteFileOptions.expect`), one convention on every
 * adapter so that writers in different processes, hosts or adapters exclude each other.
 *
 * A writer that must compare a file and then rename over it takes the lock first: it creates
 * `writeLockName(target)` in the target's directory with `O_CREAT | O_EXCL` (in a shell:
 * `set -C; printf ... > lock`), holding its owner line (`formatWriteLockOwner`). Only one create
 * succeeds; the others wait and try again. The holder compares, renames, and removes the lock:
 * it is held for the compare and the rename only (milliseconds), never while bytes travel.
 *
 * Why a lock file and not flock(2): Node has no flock, and a lock file is visible to every kind of
 * writer the project has (a Node process, a script over SSH, a script in a container) on every
 * file system they share, so a local adapter and an SSH adapter on one disk exclude each other
 * too. Its cost is the stale lock a writer killed while holding it leaves: the owner line names
 * the holder as a temp file name does (`TempFileOwner`), and a waiter that finds the holder dead
 * (`isAbandonedWriteLock`) removes the lock and tries again.
 */
import { createHash } from "node:crypto";
import { OperationError } from "./errors.js";
import type { TempFileOwner } from "./temp-files.js";
import type { WriteExpectation } from "./types.js";

/**
 * How long a writer waits for another writer's lock before failing with `timeout` (30 s). A lock
 * is held for a compare and a rename, so waiting this long means the holder is stuck.
 */
export const WRITE_LOCK_WAIT_MS = 30_000;

/**
 * How old (by modification time) the lock of a writer in another process table must be before a
 * waiter takes it as abandoned (60 s): such a holder cannot be checked for life (see
 * `FOREIGN_TEMP_MAX_AGE_MS` for the same reasoning about temp files).
 */
export const WRITE_LOCK_FOREIGN_MAX_AGE_MS = 60_000;

/** Longest target name (UTF-8 bytes) a lock name spells out; longer ones are hashed. */
export const WRITE_LOCK_TARGET_MAX_BYTES = 200;

/**
 * The lock file of a write to `target` (a bare name), in the same directory:
 * `.<target>.tackle-lock`, or for a name longer than {@link WRITE_LOCK_TARGET_MAX_BYTES} UTF-8
 * bytes `.<first 32 hex digits of the sha256 of the name>.tackle-lock` (the lock name must stay
 * under NAME_MAX and be computed the same way by a shell script). Every writer of that file
 * computes the same name.
 */
export function writeLockName(target: string): string {
  if (Buffer.byteLength(target, "utf8") <= WRITE_LOCK_TARGET_MAX_BYTES) return `.${target}.tackle-lock`;
  return `.${createHash("sha256").update(target, "utf8").digest("hex").slice(0, 32)}.tackle-lock`;
}

/** True when `name` (a bare file name) is a write lock: the tools leave it out of listings. */
export function isWriteLockName(name: string): boolean {
  return /^\..*\.tackle-lock$/s.test(name);
}

/** The content of a lock file: `<domain> <pid> <start>` and a newline. */
export function formatWriteLockOwner(owner: TempFileOwner): string {
  return `${owner.domain} ${owner.pid} ${owner.start}\n`;
}

/** The owner a lock file names, or `undefined` while it is still empty (being written) or foreign. */
export function parseWriteLockOwner(text: string): TempFileOwner | undefined {
  const match = /^([0-9a-f]{12}) ([0-9]{1,10}) ([0-9]{1,20})\n?$/.exec(text);
  if (!match) return undefined;
  return { domain: match[1] as string, pid: Number(match[2]), start: match[3] as string };
}

/** What a waiter knows about a lock's holder when it decides. */
export interface WriteLockFacts {
  /** The waiter's own domain. */
  domain: string;
  /** Start time of the process that has the holder's pid now, or `undefined` when none runs. */
  startOfPid: string | undefined;
  /** Milliseconds since the lock file was last modified. */
  ageMs: number;
}

/**
 * True when a lock was abandoned: its holder ran in this process table and is gone (no process
 * with its pid, or one that started at another time), or it ran elsewhere (or its owner line is
 * unreadable) and the lock is older than {@link WRITE_LOCK_FOREIGN_MAX_AGE_MS}.
 */
export function isAbandonedWriteLock(owner: TempFileOwner | undefined, facts: WriteLockFacts): boolean {
  if (owner === undefined || owner.domain !== facts.domain)
    return facts.ageMs > WRITE_LOCK_FOREIGN_MAX_AGE_MS;
  if (owner.start === "0") return facts.startOfPid === undefined;
  return facts.startOfPid !== owner.start;
}

/**
 * POSIX sh functions for the scripts that write over SSH and in a container (busybox ash, dash,
 * bash): the same lock, the same owner line and the same staleness rule as above.
 *
 * - `wl_take LOCK DOMAIN PID START TRIES FOREIGN_MINUTES`: creates LOCK exclusively with the
 *   owner line; when it is held, removes it if its holder is dead (same domain: no process with
 *   that pid and start time; another domain or an unreadable line: unchanged for more than
 *   FOREIGN_MINUTES) and tries again, 10 ms apart, at most TRIES times. Returns 0 when taken, 1
 *   when it gave up, 2 when the directory refuses the create.
 * - `wl_name NAME`: prints the lock name of NAME, as `writeLockName` does.
 * - `wl_sha FILE`: prints the lower-case hex sha256 of FILE (sha256sum, shasum or openssl);
 *   returns 2 when none of them exists.
 */
export const WRITE_LOCK_SHELL = `
wl_take() {
  _wlf=$1; _wld=$2; _wlp=$3; _wls=$4; _wlw=$5; _wla=$6; _wln=0
  while ! (set -C; printf '%s %s %s\\n' "$_wld" "$_wlp" "$_wls" > "$_wlf") 2>/dev/null; do
    _wln=$((_wln + 1)); [ "$_wln" -gt "$_wlw" ] && return 1
    if [ ! -e "$_wlf" ]; then [ -w "\${_wlf%/*}/" ] || return 2; continue; fi
    _wlo=; _wlq=; _wlr=; read -r _wlo _wlq _wlr < "$_wlf" 2>/dev/null
    _wlx=
    if [ "$_wlo" = "$_wld" ] && [ -n "$_wlq" ]; then
      _wlnow=
      if read -r _wll < "/proc/$_wlq/stat" 2>/dev/null; then
        _wll=\${_wll##*) }
        case $_wll in Z*|X*) ;; *) _wlnow=$(printf '%s' "$_wll" | cut -d' ' -f20) ;; esac
      fi
      if [ "$_wlr" = 0 ]; then [ -z "$_wlnow" ] && _wlx=1; else [ "$_wlnow" = "$_wlr" ] || _wlx=1; fi
    elif [ -n "$(find "$_wlf" -mmin +"$_wla" 2>/dev/null)" ]; then _wlx=1
    fi
    if [ -n "$_wlx" ]; then rm -f "$_wlf"; continue; fi
    sleep 0.01 2>/dev/null || sleep 1
  done
  return 0
}
wl_name() {
  if [ \${#1} -gt 50 ] && [ "$(printf '%s' "$1" | wc -c)" -gt ${WRITE_LOCK_TARGET_MAX_BYTES} ]; then
    _wlm=$(printf '%s' "$1" | { wl_sha /dev/stdin; }) || return 1
    printf '.%s.tackle-lock' "$(printf '%s' "$_wlm" | cut -c1-32)"
  else printf '.%s.tackle-lock' "$1"; fi
}
wl_sha() {
  if command -v sha256sum >/dev/null 2>&1; then _wlh=$(sha256sum < "$1") || return 1
  elif command -v shasum >/dev/null 2>&1; then _wlh=$(shasum -a 256 < "$1") || return 1
  elif command -v openssl >/dev/null 2>&1; then _wlh=$(openssl dgst -sha256 < "$1") || return 1; _wlh=\${_wlh##* }
  else return 2; fi
  printf '%s' "\${_wlh%% *}"
}
`;

/** `WRITE_LOCK_WAIT_MS` as `wl_take`'s TRIES (one try per 10 ms). */
export const WRITE_LOCK_SHELL_TRIES = WRITE_LOCK_WAIT_MS / 10;

/** `WRITE_LOCK_FOREIGN_MAX_AGE_MS` as `wl_take`'s FOREIGN_MINUTES (`find -mmin +N`). */
export const WRITE_LOCK_SHELL_FOREIGN_MINUTES = Math.ceil(WRITE_LOCK_FOREIGN_MAX_AGE_MS / 60_000);

/**
 * `expect` checked and reduced to one word, as the adapters' scripts take it: `""` (no
 * condition), `"-"` (the file must not exist) or the 64 lower-case hex digits of its sha256.
 * Anything else is `invalid_argument`.
 */
export function writeExpectationWord(expect: WriteExpectation | undefined, path: string): string {
  if (expect === undefined) return "";
  if ("absent" in expect && expect.absent === true) return "-";
  if ("sha256" in expect && typeof expect.sha256 === "string" && /^[0-9a-fA-F]{64}$/.test(expect.sha256)) {
    return expect.sha256.toLowerCase();
  }
  throw new OperationError(
    "invalid_argument",
    `writeFile: expect must be { sha256: <64 hex digits> } or { absent: true }; got ${JSON.stringify(expect)}`,
    { operation: "writeFile", path },
  );
}

/** The `changed` failure of a conditional write, in one wording for every adapter. */
export function changedError(path: string, expect: WriteExpectation): OperationError {
  const what =
    "absent" in expect
      ? "exists now (it did not when it was read)"
      : "no longer holds the content that was read";
  return new OperationError("changed", `writeFile: ${path} ${what}; nothing was written`, {
    operation: "writeFile",
    path,
  });
}

/**
 * Exit codes a write script that uses {@link WRITE_LOCK_SHELL} gives for a conditional write's own
 * failures (the Docker and Kubernetes adapters' scripts use these numbers).
 */
export const CONDITIONAL_WRITE_EXIT = {
  /** The target does not hold what `expect` said (`changed`). */
  changed: 99,
  /** Another writer held the lock for {@link WRITE_LOCK_WAIT_MS} (`timeout`). */
  lockTimeout: 100,
  /** The environment has no sha256 tool to compare with (`not_supported`). */
  noHash: 101,
} as const;

/**
 * The error of a write script's exit code that is one of {@link CONDITIONAL_WRITE_EXIT}, or
 * `undefined` for any other code; nothing was written in each case.
 */
export function conditionalWriteError(
  exitCode: number,
  operation: string,
  path: string,
  environment: string,
): OperationError | undefined {
  switch (exitCode) {
    case CONDITIONAL_WRITE_EXIT.changed:
      return new OperationError(
        "changed",
        `${operation}: ${path} no longer holds what expect said (another writer changed it); nothing was written`,
        { operation, path },
      );
    case CONDITIONAL_WRITE_EXIT.lockTimeout:
      return new OperationError(
        "timeout",
        `${operation}: another writer held the write lock of ${path} for ${WRITE_LOCK_WAIT_MS / 1000} s; nothing was written`,
        { operation, path },
      );
    case CONDITIONAL_WRITE_EXIT.noHash:
      return new OperationError(
        "not_supported",
        `${operation}: the ${environment} has no sha256sum, shasum or openssl to check expect with; nothing was written`,
        { operation, path },
      );
    default:
      return undefined;
  }
}
