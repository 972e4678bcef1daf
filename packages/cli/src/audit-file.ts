import { renameSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createJsonlAuditSink, type JsonlAuditSink } from "@tackle/session/audit";
import { UsageError } from "./usage-error.js";

/** Environment variable that moves the default audit file. */
export const AUDIT_FILE_VARIABLE = "TACKLE_AUDIT_FILE";

/** The value of `--audit` that turns recording off. */
export const AUDIT_OFF = "off";

/**
 * Where `tool`, `run` and `mcp` record their calls and `audit list/show` read them when `--audit`
 * is not given: `$TACKLE_AUDIT_FILE`, else `$XDG_STATE_HOME/tackle/audit.jsonl`, else
 * `~/.local/state/tackle/audit.jsonl`. On this host, whatever `--env` the calls ran in.
 */
export function defaultAuditFile(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[AUDIT_FILE_VARIABLE];
  if (explicit) return explicit;
  const state = env.XDG_STATE_HOME || join(homedir(), ".local", "state");
  return join(state, "tackle", "audit.jsonl");
}

/** The audit file a command uses: `--audit FILE`, `--audit off` (none), or the default. */
export function auditFileOf(flag: string | undefined): string | undefined {
  if (flag === AUDIT_OFF) return undefined;
  return flag ?? defaultAuditFile();
}

/**
 * Size at which a command that opens the audit file first sets it aside as `<file>.1` (replacing
 * an older `.1`) and starts a new one: the trail on disk stays under twice this, and `tackle
 * audit` reads both files.
 */
export const AUDIT_FILE_ROTATE_BYTES = 32 * 1024 * 1024;

/** The file an audit file is set aside as once it reaches {@link AUDIT_FILE_ROTATE_BYTES}. */
export function previousAuditFile(file: string): string {
  return `${file}.1`;
}

/**
 * Sets `file` aside as its {@link previousAuditFile} when it holds `limit` bytes or more; says
 * whether it did. A process still appending to it goes on writing into the set-aside file.
 */
export function rotateAuditFile(file: string, limit = AUDIT_FILE_ROTATE_BYTES): boolean {
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (size === undefined || size < limit) return false;
  try {
    renameSync(file, previousAuditFile(file));
    return true;
  } catch {
    // Another command set it aside first, or the directory is read-only: appending says which.
    return false;
  }
}

/**
 * Opens the audit file for appending, after setting it aside when it is full
 * ({@link rotateAuditFile}); a file that cannot be opened is a usage error naming it.
 */
export function openAuditSink(file: string): JsonlAuditSink {
  try {
    rotateAuditFile(file);
    return createJsonlAuditSink(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `--audit ${file}: cannot open it for appending (${code}). Choose a writable file, or --audit off to record nothing.`,
    );
  }
}
