/**
 * The audit events as schemas: the one description of each event's fields, from which the
 * event types (`events.ts`) are derived and against which a reader checks a line it reads back.
 * Objects allow fields they do not name: a newer writer may add some.
 */
import type { TLiteral } from "@sinclair/typebox";
import { Type } from "../typebox-runtime.js";

/** Version of the event format; readers skip events of a version they do not know. */
export const AUDIT_EVENT_VERSION = 1;

const text = () => Type.String();
const count = () => Type.Number();
const flag = () => Type.Boolean();
const maybe = Type.Optional;
const texts = () => Type.Array(Type.String());
/** A string that is one of `values` (a union of literals). */
const oneOf = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value)) as { -readonly [K in keyof T]: TLiteral<T[K]> });

/** The seven kinds: one per question a person asks afterwards. */
export const AUDIT_EVENT_KINDS = [
  "intent",
  "decision",
  "spawn",
  "output",
  "end",
  "side-effect",
  "diagnostics",
] as const;

/** Fields every event has. */
export const AuditEventBaseSchema = Type.Object({
  v: Type.Literal(AUDIT_EVENT_VERSION),
  kind: oneOf(AUDIT_EVENT_KINDS),
  /** The call's `toolCallId`. */
  callId: text(),
  /** Session the call belongs to, when the emitter knows it. */
  sessionId: maybe(text()),
  /** When the event was recorded (ISO 8601, ms). */
  at: text(),
  /** Which layer recorded it: `invoke`, `loop`, `hook`, `workspace`, `shell`, `jobs`, `file`, ... */
  source: text(),
});

const base = AuditEventBaseSchema.properties;

/** Who asked for a call: the model (an agent turn, an MCP client) or a person (`tackle tool`). */
export const RequestedBySchema = oneOf(["model", "user"] as const);

/** What was asked: the tool, a short redacted summary of its arguments, and who asked. */
export const AuditIntentSchema = Type.Object({
  ...base,
  kind: Type.Literal("intent"),
  tool: text(),
  /** Compact JSON of the arguments, long strings cut (see `summarizeArguments`). */
  args: text(),
  requestedBy: RequestedBySchema,
  turnId: maybe(text()),
});

/** The gates a call passes. */
export const AuditGateSchema = oneOf([
  "validation",
  "repair",
  "hook",
  "workspace",
  "shell-policy",
  "jobs",
  "environment",
] as const);

/**
 * The environment a call ran in (the `environment` gate's note): the adapter's `id` and, where the
 * adapter describes itself, the kind, host, port, user, container, engine and sandbox.
 */
export const AuditEnvironmentSchema = Type.Object({
  id: text(),
  kind: text(),
  host: maybe(text()),
  port: maybe(count()),
  user: maybe(text()),
  container: maybe(text()),
  engine: maybe(text()),
  sandbox: maybe(text()),
});

/**
 * A gate the call passed or that stopped it. `allow`: passed unchanged; `changed`: passed with
 * its arguments rewritten; `deny`: stopped; `ask`: a person was asked (see `approvedBy`);
 * `note`: information the call's result carries (e.g. the same command still running as a job).
 */
export const AuditDecisionSchema = Type.Object({
  ...base,
  kind: Type.Literal("decision"),
  gate: AuditGateSchema,
  verdict: oneOf(["allow", "changed", "deny", "ask", "note"] as const),
  /** Why, in words (a validation message, a hook's reason, a policy rule's reason). */
  reason: maybe(text()),
  /** Rules or handlers that decided (policy rule names, extension names). */
  rules: maybe(texts()),
  /** For `ask`: who answered and how. */
  approvedBy: maybe(oneOf(["user", "nobody"] as const)),
  approved: maybe(flag()),
  /** Argument fields a repair or a hook changed. */
  changed: maybe(texts()),
  /** Workspace gate: the path as given, as resolved (real), and the root that holds it. */
  path: maybe(
    Type.Object({
      input: text(),
      access: oneOf(["read", "write"] as const),
      real: maybe(text()),
      root: maybe(text()),
      inside: maybe(flag()),
    }),
  ),
  /** Error code of a refusal (`outside_workspace`, `policy_denied`, `invalid_arguments`, ...). */
  code: maybe(text()),
  /** Extra structured facts (job ids for `jobs`, problems for `validation`). */
  data: maybe(Type.Record(Type.String(), Type.Unknown())),
  /** The `environment` gate: where the call's files and commands are. */
  environment: maybe(AuditEnvironmentSchema),
});

/** A process the call started (shell tools). */
export const AuditSpawnSchema = Type.Object({
  ...base,
  kind: Type.Literal("spawn"),
  shell: text(),
  cwd: text(),
  /**
   * The command as the model sent it (redacted like every string of an event), cut at
   * `AUDIT_COMMAND_CHARS` characters; `commandChars` then gives its whole length.
   */
  command: maybe(text()),
  commandChars: maybe(count()),
  timeoutMs: maybe(count()),
  background: flag(),
  /**
   * Environment variable names set for the command (never values), and the name pattern of the
   * variables removed from the inherited environment before it runs (absent: none removed).
   */
  env: Type.Object({ set: texts(), removedPattern: maybe(text()) }),
  /** Marker every process of the command inherits (`TACKLE_RUN_ID`): finds them while they run. */
  runId: maybe(text()),
  jobId: maybe(text()),
  /** Process (group) id, when the environment reports it (for a foreground command: at its end). */
  pid: maybe(count()),
  /** Where the environment writes the output. */
  outputPath: maybe(text()),
  /**
   * Whether and how the command was sandboxed: `mechanism: "none"` when it was not; otherwise
   * the mechanism (`bubblewrap`), its network mode (`off`, `on`, `allow-list` with `allow`), the
   * paths it could write, whether a seccomp filter was loaded, and the sandbox's pid on the host.
   */
  sandbox: maybe(
    Type.Object({
      mechanism: text(),
      network: maybe(text()),
      allow: maybe(texts()),
      writable: maybe(texts()),
      seccomp: maybe(flag()),
      hostPid: maybe(count()),
    }),
  ),
});

/** Content blocks, text bytes and images of the result the model got. */
export const AuditResultSizeSchema = Type.Object({ blocks: count(), textBytes: count(), images: count() });

/** What came out, when, and what the model was shown of it. */
export const AuditOutputSchema = Type.Object({
  ...base,
  kind: Type.Literal("output"),
  /** Output timing: first and last time output was seen (absent when there was none). */
  firstOutputAt: maybe(text()),
  lastOutputAt: maybe(text()),
  /** `exact` (every chunk seen) or `polled` (the file's size checked every `resolutionMs`). */
  timing: maybe(oneOf(["exact", "polled"] as const)),
  resolutionMs: maybe(count()),
  stdoutBytes: maybe(count()),
  stderrBytes: maybe(count()),
  /** Both streams went to one descriptor (order exact, stream labels lost). */
  streamsMerged: maybe(flag()),
  totalBytes: maybe(count()),
  chunks: maybe(count()),
  /** What the model was shown: lines and bytes, and where it was cut. */
  shown: maybe(
    Type.Object({
      lines: count(),
      bytes: count(),
      cut: flag(),
      cutBy: maybe(text()),
      totalLines: maybe(count()),
    }),
  ),
  /** The file that holds the whole output, to page with `read`. */
  artifact: maybe(Type.Object({ id: text(), path: text(), size: count(), sha256: maybe(text()) })),
  /** Secrets redacted from what the model saw, counted by kind (never the secret). */
  redactions: maybe(Type.Record(Type.String(), Type.Number())),
  /**
   * Content blocks and text bytes of the result the model got. Recorded on the call's `end`
   * since that is where it is known; files written before that hold it here.
   */
  result: maybe(AuditResultSizeSchema),
});

/** How a call (`scope: "call"`) or its process (`scope: "process"`) ended. */
export const AuditEndSchema = Type.Object({
  ...base,
  kind: Type.Literal("end"),
  scope: oneOf(["call", "process"] as const),
  status: oneOf(["completed", "failed", "timed-out", "cancelled", "unknown"] as const),
  exitCode: maybe(count()),
  signal: maybe(text()),
  durationMs: count(),
  isError: maybe(flag()),
  errorCode: maybe(text()),
  /** Call end: the size of the result the model got (the output piece of every tool). */
  result: maybe(AuditResultSizeSchema),
  /** Kill steps sent and confirmed (shell tools). */
  cleanup: maybe(
    Type.Object({
      timedOut: maybe(flag()),
      termSent: flag(),
      killSent: flag(),
      confirmed: flag(),
      escapesChecked: maybe(flag()),
      remainingPids: maybe(Type.Array(count())),
      pid: maybe(count()),
      note: maybe(text()),
    }),
  ),
  /** For `unknown`: how to find or end what may still run. */
  howToCheck: maybe(text()),
  /** What the sandbox refused during the run, as `kind target` (`network example.com:443`). */
  sandboxBlocked: maybe(texts()),
});

/** One file a call created, changed or removed. */
export const AuditFileChangeSchema = Type.Object({
  path: text(),
  change: oneOf(["created", "changed", "removed"] as const),
  bytesBefore: maybe(count()),
  bytesAfter: maybe(count()),
  sha256Before: maybe(text()),
  sha256After: maybe(text()),
});

/**
 * What the call changed. `exact`: the tool knows (file tools); `snapshot`: a bounded before/after
 * comparison of the working directory (shell tools), with its bounds and blind spots.
 */
export const AuditSideEffectSchema = Type.Object({
  ...base,
  kind: Type.Literal("side-effect"),
  method: oneOf(["exact", "snapshot", "none"] as const),
  files: Type.Array(AuditFileChangeSchema),
  bounds: maybe(
    Type.Object({
      root: text(),
      maxEntries: count(),
      timeBudgetMs: count(),
      entries: count(),
      /** The walk stopped at `maxEntries` or the time budget: changes past that point are not seen. */
      complete: flag(),
      /** Largest file whose content was hashed (bytes): larger ones are compared by size and mtime. */
      maxHashBytes: maybe(count()),
      /** Files that should have been hashed but were not (the hashing budget, or unreadable). */
      unhashed: maybe(count()),
    }),
  ),
  /** What this method cannot see. */
  blindSpots: maybe(text()),
  /** Why nothing changed (method `none`): a read-only tool, a dry run, edits already applied. */
  note: maybe(text()),
});

/**
 * What the environment said about a file the call changed: its syntax check and, when the
 * session asks for them, a language server's diagnostics (counts and the first few).
 */
export const AuditDiagnosticsSchema = Type.Object({
  ...base,
  kind: Type.Literal("diagnostics"),
  path: text(),
  /** Warnings the call's result carried (`syntax_broken`, `diagnostics_errors`, `diagnostics_skipped`). */
  codes: texts(),
  syntax: Type.Object({
    status: text(),
    language: maybe(text()),
    problems: maybe(Type.Array(Type.Object({ line: count(), column: count(), message: text() }))),
  }),
  server: maybe(
    Type.Object({
      status: text(),
      provider: text(),
      elapsedMs: count(),
      errors: count(),
      warnings: count(),
      items: Type.Array(
        Type.Object({
          path: text(),
          line: count(),
          column: count(),
          severity: text(),
          message: text(),
          code: maybe(text()),
        }),
      ),
      reason: maybe(text()),
    }),
  ),
});

/** The schema of each kind of event, by kind. */
export const AUDIT_EVENT_SCHEMAS = {
  intent: AuditIntentSchema,
  decision: AuditDecisionSchema,
  spawn: AuditSpawnSchema,
  output: AuditOutputSchema,
  end: AuditEndSchema,
  "side-effect": AuditSideEffectSchema,
  diagnostics: AuditDiagnosticsSchema,
} as const;
