import { homedir } from "node:os";
import { join } from "node:path";
import { createJsonlAuditSink, type JsonlAuditSink } from "@tackle/tools/audit";
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

/** Opens the audit file for appending; a file that cannot be opened is a usage error naming it. */
export function openAuditSink(file: string): JsonlAuditSink {
  try {
    return createJsonlAuditSink(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `--audit ${file}: cannot open it for appending (${code}). Choose a writable file, or --audit off to record nothing.`,
    );
  }
}
