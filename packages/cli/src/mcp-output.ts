/**
 * Structured output of the MCP server (`outputSchema` in `tools/list`, `structuredContent` in
 * results): for each tool whose result has structure, the part of its `details` a client may
 * see, as a TypeBox schema. Each schema is held to the tool's own details type by the compiler
 * (`Holds<Same<...>>` below: a field the tool renames, retypes or drops fails the build), and the
 * structured content is the details picked by the schema's own keys, so the schema is the one
 * list of what goes out.
 *
 * What stays out: host paths (the resolved file `real`, the shell's working directory, artifact
 * and job log files, process owners), policy findings and diagnostics. The model's text already
 * says what a client needs of them.
 */
import { type Static, type TSchema, Type } from "@tackle/agent-core/typebox";
import type {
  ApplyPatchDetails,
  EditDetails,
  FindDetails,
  GrepDetails,
  JobsDetails,
  LsDetails,
  PatchFileResult,
  ShellToolDetails,
  WriteDetails,
} from "@tackle/tools";
import type { JobRecord } from "@tackle/tools/shell";

/** True when `A` and `B` accept the same values (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`: how each schema is held to the details type it describes. */
type Holds<_T extends true> = never;

const literals = <const T extends string>(...values: T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));
const count = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });

const sanitized = Type.Optional(
  Type.Object(
    {
      controlLines: count("lines that lost escapes or control characters"),
      redactedLines: count("lines with a secret replaced by a placeholder"),
      redactedKinds: Type.Array(Type.String()),
    },
    { description: "present when output was cleaned before the model saw it" },
  ),
);
const engine = Type.Union([Type.Literal("native"), Type.Literal("portable")], {
  description: "native: the environment's ripgrep; portable: the built-in walk",
});
const truncatedBy = Type.Union([Type.Literal("lines"), Type.Literal("bytes"), Type.Null()], {
  description: "which limit cut the whole output, or null",
});
const nextOffset = Type.Optional(count("offset of the next page; absent on the last page"));
const encoding = literals("utf8", "utf16le", "utf16be");

const grepOutput = Type.Object({
  pattern: Type.String(),
  path: Type.String({ description: "searched path as the model named it" }),
  engine,
  offset: count(),
  limit: count(),
  matches: count("matches on this page"),
  files: count("files with a match on this page"),
  nextOffset,
  linesCut: count("matching lines cut at the line length limit"),
  truncatedBy,
  sanitized,
});
type _Grep = Holds<Same<Static<typeof grepOutput>, GrepDetails>>;

const findOutput = Type.Object({
  pattern: Type.String(),
  path: Type.String({ description: "searched path as the model named it" }),
  engine,
  offset: count(),
  limit: count(),
  count: count("paths on this page"),
  nextOffset,
  truncatedBy,
  sanitized,
});
type _Find = Holds<Same<Static<typeof findOutput>, FindDetails>>;

const entryType = literals("file", "directory", "symlink", "other");
const lsOutput = Type.Object({
  path: Type.String({ description: "listed directory as the model named it" }),
  entries: Type.Array(
    Type.Object({
      name: Type.String(),
      type: entryType,
      size: Type.Optional(count("bytes (files, and what a link points to)")),
      target: Type.Optional(Type.String({ description: "a link's target as stored" })),
      broken: Type.Optional(Type.Boolean({ description: "a link whose target does not exist" })),
      targetType: Type.Optional(entryType),
      ignored: Type.Boolean({ description: "excluded by .gitignore or .ignore" }),
    }),
  ),
  total: count("entries in the directory"),
  shown: count("entries listed"),
  ignoredCount: count("entries .gitignore or .ignore excludes"),
  limit: count(),
  sanitized,
});
type _Ls = Holds<Same<Static<typeof lsOutput>, Omit<LsDetails, "real">>>;

type EditOutcome = EditDetails["edits"][number];
const editOutput = Type.Object({
  path: Type.String({ description: "the file as the model named it" }),
  dryRun: Type.Boolean(),
  changed: Type.Boolean({ description: "false when every edit was already applied" }),
  edits: Type.Array(
    Type.Object({
      index: count(),
      status: literals("applied", "already_applied"),
      occurrences: count("places replaced (0 when already applied)"),
      lines: Type.Array(Type.Integer({ minimum: 1 }), { description: "1-based line of each place" }),
    }),
  ),
  diff: Type.String({ description: "unified diff of the change (empty when nothing changed)" }),
  added: count("lines added"),
  removed: count("lines removed"),
  encoding,
  hasBom: Type.Boolean(),
  writtenBytes: count("bytes written (or that a dry run would write)"),
  redone: count("times another writer changed the file and the edits were matched again"),
});
type EditShape = Omit<Pick<EditDetails, keyof Static<typeof editOutput>>, "edits"> & {
  edits: Pick<EditOutcome, "index" | "status" | "occurrences" | "lines">[];
};
type _Edit = Holds<Same<Static<typeof editOutput>, EditShape>>;

const writeOutput = Type.Object({
  path: Type.String({ description: "the file as the model named it" }),
  created: Type.Boolean(),
  dryRun: Type.Boolean(),
  bytes: count("UTF-8 bytes of the content given"),
  lines: count("lines of the content given"),
  writtenBytes: count("bytes written (differs from bytes for UTF-16, a BOM or CRLF)"),
  encoding,
  hasBom: Type.Boolean(),
  lineEnding: literals("lf", "crlf"),
});
type _Write = Holds<Same<Static<typeof writeOutput>, Omit<WriteDetails, "real" | "feedback">>>;

const patchOutput = Type.Object({
  dryRun: Type.Boolean(),
  changed: Type.Boolean({ description: "false when every section was already applied" }),
  files: Type.Array(
    Type.Object({
      path: Type.String({ description: "the file as the patch names it" }),
      action: literals("add", "update", "delete", "insert"),
      movedTo: Type.Optional(Type.String({ description: "where an update moved the file" })),
      changed: Type.Boolean(),
      diff: Type.String({ description: "unified diff (empty for a delete or an unchanged file)" }),
      added: count("lines added"),
      removed: count("lines removed"),
    }),
  ),
});
type PatchShape = Pick<ApplyPatchDetails, "dryRun" | "changed"> & {
  files: Pick<PatchFileResult, keyof Static<typeof patchOutput>["files"][number]>[];
};
type _Patch = Holds<Same<Static<typeof patchOutput>, PatchShape>>;

const jobOutput = Type.Object({
  id: Type.String({ description: "the id the jobs tool takes" }),
  shell: literals("bash", "pwsh"),
  command: Type.String(),
  status: literals("running", "completed", "failed", "killed", "timed-out", "unknown", "orphaned"),
  exitCode: Type.Optional(Type.Integer()),
  signal: Type.Optional(Type.String()),
  startedAt: Type.Integer({ description: "ms since the epoch" }),
  endedAt: Type.Optional(Type.Integer({ description: "ms since the epoch" })),
  keepAlive: Type.Boolean({ description: "keeps running after the session ends" }),
});
type JobShape = Pick<JobRecord, keyof Static<typeof jobOutput>>;

const jobsOutput = Type.Object({
  jobs: Type.Optional(Type.Array(jobOutput, { description: "action=list: every job" })),
  job: Type.Optional(Type.Object(jobOutput.properties, { description: "the job acted on" })),
  offset: Type.Optional(count("action=tail: byte offset the output shown starts at")),
  nextOffset: Type.Optional(count("action=tail: offset to continue from")),
  size: Type.Optional(count("action=tail: bytes of output so far")),
});
type _Jobs = Holds<
  Same<Static<typeof jobsOutput>, Omit<JobsDetails, "jobs" | "job"> & { jobs?: JobShape[]; job?: JobShape }>
>;

type ShellRun = NonNullable<ShellToolDetails["run"]>;
const shellOutput = Type.Object({
  shell: literals("bash", "pwsh"),
  command: Type.String(),
  run: Type.Optional(
    Type.Object(
      {
        status: literals("completed", "failed", "timed-out", "cancelled", "unknown"),
        exitCode: Type.Optional(Type.Integer()),
        signal: Type.Optional(Type.String()),
        elapsedMs: count(),
        totalBytes: count("bytes of output (both streams)"),
        outputLimitBytes: count("the output budget in force"),
        outputCut: Type.Boolean({ description: "the output shown does not start at the first byte" }),
        wantedInput: Type.Boolean({
          description: "it failed and its output says it wanted input or a terminal",
        }),
      },
      { description: "a foreground command: how it ended" },
    ),
  ),
  job: Type.Optional(
    Type.Object(jobOutput.properties, {
      description: "a background job: as recorded when the call returned",
    }),
  ),
  ready: Type.Optional(literals("ready", "ended", "timeout")),
  patch: Type.Optional(
    Type.Object(patchOutput.properties, {
      description: "an apply_patch heredoc: what the patch did (no process ran)",
    }),
  ),
  timeoutClamped: Type.Optional(Type.Boolean({ description: "the timeout asked for was above the maximum" })),
});
type ShellShape = Pick<ShellToolDetails, "shell" | "command" | "ready" | "timeoutClamped"> & {
  patch?: PatchShape;
  run?: Pick<ShellRun, keyof NonNullable<Static<typeof shellOutput>["run"]>>;
  job?: JobShape;
};
type _Shell = Holds<Same<Static<typeof shellOutput>, ShellShape>>;

/**
 * The structured output of Tackle's tools by name: grep and find (the search and its page),
 * ls (the entries), edit, write and apply_patch (what changed), bash and powershell (how the
 * command ended, the background job, or what an `apply_patch` heredoc did), jobs (the jobs
 * as recorded).
 */
export const MCP_OUTPUT_SCHEMAS: Readonly<Record<string, TSchema>> = {
  grep: grepOutput,
  find: findOutput,
  ls: lsOutput,
  edit: editOutput,
  write: writeOutput,
  apply_patch: patchOutput,
  bash: shellOutput,
  jobs: jobsOutput,
  powershell: shellOutput,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` with only what `schema` names (objects by their properties, arrays item by item). */
function pick(schema: TSchema, value: unknown): unknown {
  if (schema.type === "object" && isRecord(schema.properties) && isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
      if (value[key] !== undefined) out[key] = pick(property, value[key]);
    }
    return out;
  }
  if (schema.type === "array" && Array.isArray(value)) {
    return value.map((item) => pick(schema.items as TSchema, item));
  }
  return value;
}

/**
 * The structured content for one result's `details`, or undefined when they are not the tool's
 * details (a failure that carried something else, such as a missing working directory): every
 * field the schema requires must be there.
 */
export function structuredContentOf(schema: TSchema, details: unknown): Record<string, unknown> | undefined {
  const picked = pick(schema, details);
  if (!isRecord(picked)) return undefined;
  const required = (schema.required as string[] | undefined) ?? [];
  return required.every((key) => picked[key] !== undefined) ? picked : undefined;
}
