import { parseArgs } from "node:util";
import { type AuditCallRecord, assembleAuditRecords } from "@tackle/agent-core";
import { type AuditFileContents, readAuditFile } from "@tackle/session/audit";
import { AUDIT_OFF, defaultAuditFile, previousAuditFile } from "../audit-file.js";
import { formatAuditList, formatAuditRecord } from "../audit-format.js";
import { auditHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { parseCommandArgs } from "../parse.js";
import { EXIT_OK, EXIT_TOOL_ERROR, UsageError } from "../usage-error.js";

/** The flags of `tackle audit`. */
export const AUDIT_COMMAND_OPTIONS = {
  audit: { type: "string" },
  since: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a duration back from now (`30s`, `10m`, `2h`, `1d`) or a date (`2026-12-01T18:00Z`). */
export function parseSince(text: string, now = Date.now()): number {
  const duration = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (duration) return now - Number(duration[1]) * (UNITS[duration[2] as string] as number);
  const date = Date.parse(text);
  if (Number.isNaN(date)) {
    throw new UsageError(
      `--since takes a duration (30s, 10m, 2h, 1d) or a date (2026-12-01T18:00Z); got "${text}".`,
    );
  }
  return date;
}

/** Malformed events named one by one on stderr; the rest are only counted. */
const INVALID_EVENTS_SHOWN = 5;

async function load(file: string, io: CliIO): Promise<AuditFileContents | undefined> {
  try {
    const contents = await readAuditFile(file);
    if (contents.tornLastLine) {
      io.stderr(
        `tackle: the last line of ${file} was cut off mid-write (its writer stopped); it was skipped.\n`,
      );
    }
    if (contents.skippedLines.length > 0) {
      io.stderr(
        `tackle: skipped ${contents.skippedLines.length} line(s) of ${file} that are not audit events.\n`,
      );
    }
    // The first few, with what is wrong: enough to find the writer that made them.
    for (const { line, problem } of contents.invalidEvents.slice(0, INVALID_EVENTS_SHOWN)) {
      io.stderr(`tackle: ${file}:${line}: not a usable audit event (${problem}).\n`);
    }
    return contents;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new UsageError(`--audit ${file}: cannot read it (${code ?? (error as Error).message}).`);
  }
}

/** `tackle audit list|show`: reads an audit file and prints calls. Returns the exit code. */
export async function auditCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: AUDIT_COMMAND_OPTIONS }),
    "audit",
  );
  if (values.help) {
    io.stdout(`${auditHelp(AUDIT_COMMAND_OPTIONS)}\n`);
    return EXIT_OK;
  }
  const [action, id, ...rest] = positionals;
  if (action !== "list" && action !== "show") {
    throw new UsageError(
      action === undefined
        ? "Say what to do: tackle audit list, or tackle audit show <callId>. See tackle audit --help."
        : `Unknown audit action "${action}". Use list or show; see tackle audit --help.`,
    );
  }
  if (values.audit === AUDIT_OFF) throw new UsageError("--audit off records nothing; name the file to read.");
  if (rest.length > 0 || (action === "list" && id !== undefined)) {
    throw new UsageError(`Unexpected argument "${rest[0] ?? id}". See tackle audit --help.`);
  }
  const since = values.since === undefined ? undefined : parseSince(values.since);
  if (action === "show" && id === undefined) {
    throw new UsageError(
      "Name the call: tackle audit show <callId> (or last). tackle audit list shows the ids.",
    );
  }
  const file = values.audit ?? defaultAuditFile();
  const previous = await load(previousAuditFile(file), io);
  const current = await load(file, io);
  const contents =
    previous && current ? { events: [...previous.events, ...current.events] } : (current ?? previous);
  if (!contents) {
    io.stderr(`tackle: no audit file at ${file}: no call was recorded there yet.\n`);
    return action === "list" ? EXIT_OK : EXIT_TOOL_ERROR;
  }
  let records = assembleAuditRecords(contents.events);
  if (since !== undefined) records = records.filter((record) => Date.parse(record.lastAt) >= since);
  if (action === "list") {
    io.stdout(
      values.json
        ? records.map((r) => `${JSON.stringify(summaryOf(r))}\n`).join("")
        : `${formatAuditList(records)}\n`,
    );
    return EXIT_OK;
  }
  const matches = id === "last" ? records.slice(-1) : records.filter((record) => record.callId === id);
  const record = matches.at(-1);
  if (!record) {
    io.stderr(`tackle: no call ${id} in ${file}. tackle audit list shows the recorded ids.\n`);
    return EXIT_TOOL_ERROR;
  }
  if (values.json) {
    const { events: _events, ...rest } = record;
    io.stdout(`${JSON.stringify(rest, null, 2)}\n`);
  } else {
    io.stdout(`${formatAuditRecord(record)}\n`);
  }
  if (matches.length > 1) {
    io.stderr(
      `tackle: ${matches.length - 1} earlier call(s) have the id ${id} (other sessions); this is the latest.\n`,
    );
  }
  return EXIT_OK;
}

function summaryOf(record: AuditCallRecord) {
  return {
    callId: record.callId,
    sessionId: record.sessionId,
    tool: record.tool,
    requestedBy: record.intent?.requestedBy,
    startedAt: record.firstAt,
    ended: record.ended,
    status: record.end?.status,
    durationMs: record.end?.durationMs,
    args: record.intent?.args,
  };
}
