/**
 * The shape of each audit event, checked when a file is read back. A line can be valid JSON of
 * the right version and still not be an event a reader can use (a tool of another version, a
 * hand edit, a bug): such a line is skipped and reported with what is wrong, so `tackle audit`
 * and any other reader never crash on it.
 */
import { AUDIT_EVENT_VERSION } from "@tackle/agent-core";

/** What a field must hold: a JSON type, an array of one, a nested shape, or a list of values. */
type FieldType =
  | "string"
  | "number"
  | "boolean"
  | "string[]"
  | "number[]"
  | "record"
  | { oneOf: readonly string[] }
  | { shape: Shape }
  | { arrayOf: Shape };

/** Fields of an object: `?` after the name marks an optional one. */
type Shape = Readonly<Record<string, FieldType>>;

const STATUSES = ["completed", "failed", "timed-out", "cancelled", "unknown"] as const;

const RESULT_SIZE: Shape = { blocks: "number", textBytes: "number", images: "number" };

const ENVIRONMENT: Shape = {
  kind: "string",
  "id?": "string",
  "host?": "string",
  "port?": "number",
  "user?": "string",
  "container?": "string",
  "engine?": "string",
  "sandbox?": "string",
};

const BASE: Shape = {
  v: "number",
  kind: "string",
  callId: "string",
  at: "string",
  source: "string",
  "sessionId?": "string",
};

const SHAPES: Readonly<Record<string, Shape>> = {
  intent: { tool: "string", args: "string", requestedBy: { oneOf: ["model", "user"] }, "turnId?": "string" },
  decision: {
    gate: "string",
    verdict: { oneOf: ["allow", "changed", "deny", "ask", "note"] },
    "reason?": "string",
    "rules?": "string[]",
    "approvedBy?": { oneOf: ["user", "nobody"] },
    "approved?": "boolean",
    "changed?": "string[]",
    "path?": {
      shape: {
        input: "string",
        access: { oneOf: ["read", "write"] },
        "real?": "string",
        "root?": "string",
        "inside?": "boolean",
      },
    },
    "code?": "string",
    "data?": "record",
    "environment?": { shape: ENVIRONMENT },
  },
  spawn: {
    shell: "string",
    cwd: "string",
    "command?": "string",
    "commandChars?": "number",
    "timeoutMs?": "number",
    background: "boolean",
    env: { shape: { set: "string[]", "removedPattern?": "string" } },
    "runId?": "string",
    "jobId?": "string",
    "pid?": "number",
    "outputPath?": "string",
  },
  output: {
    "firstOutputAt?": "string",
    "lastOutputAt?": "string",
    "timing?": { oneOf: ["exact", "polled"] },
    "resolutionMs?": "number",
    "stdoutBytes?": "number",
    "stderrBytes?": "number",
    "streamsMerged?": "boolean",
    "totalBytes?": "number",
    "chunks?": "number",
    "shown?": {
      shape: {
        lines: "number",
        bytes: "number",
        cut: "boolean",
        "cutBy?": "string",
        "totalLines?": "number",
      },
    },
    "artifact?": { shape: { id: "string", path: "string", size: "number", "sha256?": "string" } },
    "redactions?": "record",
    "result?": { shape: RESULT_SIZE },
  },
  end: {
    scope: { oneOf: ["call", "process"] },
    status: { oneOf: STATUSES },
    "exitCode?": "number",
    "signal?": "string",
    durationMs: "number",
    "isError?": "boolean",
    "errorCode?": "string",
    "result?": { shape: RESULT_SIZE },
    "cleanup?": {
      shape: {
        "timedOut?": "boolean",
        termSent: "boolean",
        killSent: "boolean",
        confirmed: "boolean",
        "escapesChecked?": "boolean",
        "remainingPids?": "number[]",
        "pid?": "number",
        "note?": "string",
      },
    },
    "howToCheck?": "string",
  },
  "side-effect": {
    method: { oneOf: ["exact", "snapshot", "none"] },
    files: {
      arrayOf: {
        path: "string",
        change: { oneOf: ["created", "changed", "removed"] },
        "bytesBefore?": "number",
        "bytesAfter?": "number",
        "sha256Before?": "string",
        "sha256After?": "string",
      },
    },
    "bounds?": {
      shape: {
        root: "string",
        maxEntries: "number",
        timeBudgetMs: "number",
        entries: "number",
        complete: "boolean",
        "maxHashBytes?": "number",
        "unhashed?": "number",
      },
    },
    "blindSpots?": "string",
    "note?": "string",
  },
  diagnostics: {
    path: "string",
    codes: "string[]",
    syntax: {
      shape: {
        status: "string",
        "language?": "string",
        "problems?": { arrayOf: { line: "number", column: "number", message: "string" } },
      },
    },
    "server?": {
      shape: {
        status: "string",
        provider: "string",
        elapsedMs: "number",
        errors: "number",
        warnings: "number",
        items: {
          arrayOf: {
            path: "string",
            line: "number",
            column: "number",
            severity: "string",
            message: "string",
            "code?": "string",
          },
        },
        "reason?": "string",
      },
    },
  },
};

/**
 * What is wrong with `value` as an audit event of this version, or `undefined` when it is one a
 * reader can use: the fields every event has, the kind's required fields, and the type of every
 * field it names (unknown extra fields are allowed: a newer writer may add some).
 */
export function auditEventProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "not a JSON object";
  if (value.v !== AUDIT_EVENT_VERSION)
    return `version ${JSON.stringify(value.v)} is not ${AUDIT_EVENT_VERSION}`;
  const problem = shapeProblem(value, BASE, "");
  if (problem) return problem;
  const shape = SHAPES[value.kind as string];
  if (!shape) return `unknown kind ${JSON.stringify(value.kind)}`;
  return shapeProblem(value, shape, "");
}

function shapeProblem(value: Record<string, unknown>, shape: Shape, at: string): string | undefined {
  for (const [key, type] of Object.entries(shape)) {
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    const field = value[name];
    const where = at ? `${at}.${name}` : name;
    if (field === undefined) {
      if (optional) continue;
      return `${where} is missing`;
    }
    const problem = fieldProblem(field, type, where);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(field: unknown, type: FieldType, where: string): string | undefined {
  if (typeof type === "string") {
    const ok =
      type === "string[]" || type === "number[]"
        ? Array.isArray(field) && field.every((item) => typeof item === type.slice(0, -2))
        : type === "record"
          ? isRecord(field)
          : typeof field === type;
    return ok ? undefined : `${where} should be ${type}, got ${describe(field)}`;
  }
  if ("oneOf" in type)
    return type.oneOf.includes(field as string)
      ? undefined
      : `${where} should be one of ${type.oneOf.join(", ")}, got ${describe(field)}`;
  if ("shape" in type)
    return isRecord(field)
      ? shapeProblem(field, type.shape, where)
      : `${where} should be an object, got ${describe(field)}`;
  if (!Array.isArray(field)) return `${where} should be an array, got ${describe(field)}`;
  for (const [index, item] of field.entries()) {
    const problem = isRecord(item)
      ? shapeProblem(item, type.arrayOf, `${where}[${index}]`)
      : `${where}[${index}] should be an object, got ${describe(item)}`;
    if (problem) return problem;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 40 ? `${typeof value} ${text.slice(0, 40)}…` : text;
}
