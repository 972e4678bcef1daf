/**
 * The audit trail's vocabulary: what one tool call leaves behind as evidence, as events keyed by
 * its `toolCallId`. Seven kinds, one per question a person asks afterwards: what was asked
 * (`intent`), what allowed or stopped it (`decision`), what was started (`spawn`), what came out
 * and when (`output`), how it ended (`end`), what it changed (`side-effect`), what the
 * environment said about a changed file (`diagnostics`).
 *
 * Events are plain JSON (one line each in a JSONL file), so every field is a string, number,
 * boolean, array or object; times are ISO 8601 strings, durations milliseconds.
 */

/** Version of the event format; readers skip events of a version they do not know. */
export const AUDIT_EVENT_VERSION = 1;

/** The seven pieces of evidence. */
export type AuditEventKind =
  | "intent"
  | "decision"
  | "spawn"
  | "output"
  | "end"
  | "side-effect"
  | "diagnostics";

/** Who asked for a call: the model (an agent turn, an MCP client) or a person (`tackle tool`). */
export type RequestedBy = "model" | "user";

/** Fields every event has. */
export interface AuditEventBase {
  v: typeof AUDIT_EVENT_VERSION;
  kind: AuditEventKind;
  /** The call's `toolCallId`. */
  callId: string;
  /** Session the call belongs to, when the emitter knows it. */
  sessionId?: string;
  /** When the event was recorded (ISO 8601, ms). */
  at: string;
  /** Which layer recorded it: `invoke`, `loop`, `hook`, `workspace`, `shell`, `jobs`, `file`, ... */
  source: string;
}

/** What was asked: the tool, a short redacted summary of its arguments, and who asked. */
export interface AuditIntent extends AuditEventBase {
  kind: "intent";
  tool: string;
  /** Compact JSON of the arguments, long strings cut (see `summarizeArguments`). */
  args: string;
  requestedBy: RequestedBy;
  turnId?: string;
}

/** The gates a call passes. */
export type AuditGate =
  | "validation"
  | "repair"
  | "hook"
  | "workspace"
  | "shell-policy"
  | "jobs"
  | "environment";

/**
 * The environment a call ran in (the `environment` gate's note): the adapter's `id` and, where the
 * adapter describes itself, the kind, host, port, user, container, engine and sandbox.
 */
export interface AuditEnvironment {
  id: string;
  kind: string;
  host?: string;
  port?: number;
  user?: string;
  container?: string;
  engine?: string;
  sandbox?: string;
}

/**
 * A gate the call passed or that stopped it. `allow`: passed unchanged; `changed`: passed with
 * its arguments rewritten; `deny`: stopped; `ask`: a person was asked (see `approvedBy`);
 * `note`: information the call's result carries (e.g. the same command still running as a job).
 */
export interface AuditDecision extends AuditEventBase {
  kind: "decision";
  gate: AuditGate;
  verdict: "allow" | "changed" | "deny" | "ask" | "note";
  /** Why, in words (a validation message, a hook's reason, a policy rule's reason). */
  reason?: string;
  /** Rules or handlers that decided (policy rule names, extension names). */
  rules?: string[];
  /** For `ask`: who answered and how. */
  approvedBy?: "user" | "nobody";
  approved?: boolean;
  /** Argument fields a repair or a hook changed. */
  changed?: string[];
  /** Workspace gate: the path as given, as resolved (real), and the root that holds it. */
  path?: { input: string; access: "read" | "write"; real?: string; root?: string; inside?: boolean };
  /** Error code of a refusal (`outside_workspace`, `policy_denied`, `invalid_arguments`, ...). */
  code?: string;
  /** Extra structured facts (job ids for `jobs`, problems for `validation`). */
  data?: Record<string, unknown>;
  /** The `environment` gate: where the call's files and commands are. */
  environment?: AuditEnvironment;
}

/** A process the call started (shell tools). */
export interface AuditSpawn extends AuditEventBase {
  kind: "spawn";
  shell: string;
  cwd: string;
  /**
   * The command as the model sent it (redacted like every string of an event), cut at
   * `AUDIT_COMMAND_CHARS` characters; `commandChars` then gives its whole length.
   */
  command?: string;
  commandChars?: number;
  timeoutMs?: number;
  background: boolean;
  /**
   * Environment variable names set for the command (never values), and the name pattern of the
   * variables removed from the inherited environment before it runs (absent: none removed).
   */
  env: { set: string[]; removedPattern?: string };
  /** Marker every process of the command inherits (`TACKLE_RUN_ID`): finds them while they run. */
  runId?: string;
  jobId?: string;
  /** Process (group) id, when the environment reports it (for a foreground command: at its end). */
  pid?: number;
  /** Where the environment writes the output. */
  outputPath?: string;
  /**
   * Whether and how the command was sandboxed: `mechanism: "none"` when it was not; otherwise
   * the mechanism (`bubblewrap`), its network mode (`off`, `on`, `allow-list` with `allow`), the
   * paths it could write, whether a seccomp filter was loaded, and the sandbox's pid on the host.
   */
  sandbox?: {
    mechanism: string;
    network?: string;
    allow?: string[];
    writable?: string[];
    seccomp?: boolean;
    hostPid?: number;
  };
}

/** What came out, when, and what the model was shown of it. */
export interface AuditOutput extends AuditEventBase {
  kind: "output";
  /** Output timing: first and last time output was seen (absent when there was none). */
  firstOutputAt?: string;
  lastOutputAt?: string;
  /** `exact` (every chunk seen) or `polled` (the file's size checked every `resolutionMs`). */
  timing?: "exact" | "polled";
  resolutionMs?: number;
  stdoutBytes?: number;
  stderrBytes?: number;
  /** Both streams went to one descriptor (order exact, stream labels lost). */
  streamsMerged?: boolean;
  totalBytes?: number;
  chunks?: number;
  /** What the model was shown: lines and bytes, and where it was cut. */
  shown?: { lines: number; bytes: number; cut: boolean; cutBy?: string; totalLines?: number };
  /** The file that holds the whole output, to page with `read`. */
  artifact?: { id: string; path: string; size: number; sha256?: string };
  /** Secrets redacted from what the model saw, counted by kind (never the secret). */
  redactions?: Record<string, number>;
  /**
   * Content blocks and text bytes of the result the model got. Recorded on the call's `end`
   * since that is where it is known; files written before that hold it here.
   */
  result?: AuditResultSize;
}

/** Content blocks, text bytes and images of the result the model got. */
export interface AuditResultSize {
  blocks: number;
  textBytes: number;
  images: number;
}

/** How a call (`scope: "call"`) or its process (`scope: "process"`) ended. */
export interface AuditEnd extends AuditEventBase {
  kind: "end";
  scope: "call" | "process";
  status: "completed" | "failed" | "timed-out" | "cancelled" | "unknown";
  exitCode?: number;
  signal?: string;
  durationMs: number;
  isError?: boolean;
  errorCode?: string;
  /** Call end: the size of the result the model got (the output piece of every tool). */
  result?: AuditResultSize;
  /** Kill steps sent and confirmed (shell tools). */
  cleanup?: {
    timedOut?: boolean;
    termSent: boolean;
    killSent: boolean;
    confirmed: boolean;
    escapesChecked?: boolean;
    remainingPids?: number[];
    pid?: number;
    note?: string;
  };
  /** For `unknown`: how to find or end what may still run. */
  howToCheck?: string;
  /** What the sandbox refused during the run, as `kind target` (`network example.com:443`). */
  sandboxBlocked?: string[];
}

/** One file a call created, changed or removed. */
export interface AuditFileChange {
  path: string;
  change: "created" | "changed" | "removed";
  bytesBefore?: number;
  bytesAfter?: number;
  sha256Before?: string;
  sha256After?: string;
}

/**
 * What the call changed. `exact`: the tool knows (file tools); `snapshot`: a bounded before/after
 * comparison of the working directory (shell tools), with its bounds and blind spots.
 */
export interface AuditSideEffect extends AuditEventBase {
  kind: "side-effect";
  method: "exact" | "snapshot" | "none";
  files: AuditFileChange[];
  bounds?: {
    root: string;
    maxEntries: number;
    timeBudgetMs: number;
    entries: number;
    /** The walk stopped at `maxEntries` or the time budget: changes past that point are not seen. */
    complete: boolean;
    /** Largest file whose content was hashed (bytes): larger ones are compared by size and mtime. */
    maxHashBytes?: number;
    /** Files that should have been hashed but were not (the hashing budget, or unreadable). */
    unhashed?: number;
  };
  /** What this method cannot see. */
  blindSpots?: string;
  /** Why nothing changed (method `none`): a read-only tool, a dry run, edits already applied. */
  note?: string;
}

/**
 * What the environment said about a file the call changed: its syntax check and, when the
 * session asks for them, a language server's diagnostics (counts and the first few).
 */
export interface AuditDiagnostics extends AuditEventBase {
  kind: "diagnostics";
  path: string;
  /** Warnings the call's result carried (`syntax_broken`, `diagnostics_errors`, `diagnostics_skipped`). */
  codes: string[];
  syntax: {
    status: string;
    language?: string;
    problems?: { line: number; column: number; message: string }[];
  };
  server?: {
    status: string;
    provider: string;
    elapsedMs: number;
    errors: number;
    warnings: number;
    items: { path: string; line: number; column: number; severity: string; message: string; code?: string }[];
    reason?: string;
  };
}

/** Any audit event. */
export type AuditEvent =
  | AuditIntent
  | AuditDecision
  | AuditSpawn
  | AuditOutput
  | AuditEnd
  | AuditSideEffect
  | AuditDiagnostics;

/** An event as an emitter writes it: the recorder fills in `v`, `callId`, `sessionId` and `at`. */
export type AuditEventInput =
  | (Omit<AuditIntent, keyof AuditEventBase | "kind"> & { kind: "intent"; source: string })
  | (Omit<AuditDecision, keyof AuditEventBase | "kind"> & { kind: "decision"; source: string })
  | (Omit<AuditSpawn, keyof AuditEventBase | "kind"> & { kind: "spawn"; source: string })
  | (Omit<AuditOutput, keyof AuditEventBase | "kind"> & { kind: "output"; source: string })
  | (Omit<AuditEnd, keyof AuditEventBase | "kind"> & { kind: "end"; source: string })
  | (Omit<AuditSideEffect, keyof AuditEventBase | "kind"> & { kind: "side-effect"; source: string })
  | (Omit<AuditDiagnostics, keyof AuditEventBase | "kind"> & { kind: "diagnostics"; source: string });
