/** How `tackle audit list` and `tackle audit show` print records: plain text for a person. */
import type {
  AuditCallRecord,
  AuditDecision,
  AuditEnd,
  AuditEnvironment,
  AuditSideEffect,
} from "@tackle/agent-core";
import { formatBytes } from "@tackle/tools/text";

/** Width of the piece names in `show`. */
const LABEL = 12;

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function clock(iso: string | undefined): string {
  return iso ? iso.replace("T", " ").replace(/Z$/, "") : "?";
}

/** Characters of a command `show` prints on its line; `--json` has the whole recorded command. */
const COMMAND_SHOWN_CHARS = 300;

/** The command on one line: newlines shown as `⏎`, long ones cut with their length. */
function commandLine(command: string, recordedChars: number | undefined): string {
  const flat = command.replaceAll("\n", " ⏎ ");
  const total = recordedChars ?? command.length;
  return flat.length > COMMAND_SHOWN_CHARS
    ? `${flat.slice(0, COMMAND_SHOWN_CHARS)}… (${total} chars; whole as recorded: --json)`
    : flat;
}

/** One line per call: start, id, tool, who asked, how it ended, how long. */
export function formatAuditList(records: readonly AuditCallRecord[]): string {
  if (records.length === 0) return "No audited calls.";
  return records
    .map((record) => {
      const status = record.end ? record.end.status : "not ended";
      const duration = record.end ? seconds(record.end.durationMs) : "-";
      const who = record.intent?.requestedBy ?? "?";
      const args = (record.intent?.args ?? "").slice(0, 60);
      return [clock(record.firstAt), record.callId, record.tool ?? "?", who, status, duration, args].join(
        "  ",
      );
    })
    .join("\n");
}

function piece(label: string, lines: string[]): string {
  const [first = "", ...rest] = lines.length > 0 ? lines : ["-"];
  return [`${label.padEnd(LABEL)}${first}`, ...rest.map((line) => `${" ".repeat(LABEL)}${line}`)].join("\n");
}

/** `ssh root@devbox:22`, `docker dev via unix:///var/run/docker.sock`, `local me@laptop`. */
function environmentLine(environment: AuditEnvironment): string {
  const { kind, host, port, user, container, engine, sandbox } = environment;
  const where =
    container ??
    (host !== undefined
      ? `${user !== undefined ? `${user}@` : ""}${host}${port !== undefined ? `:${port}` : ""}`
      : environment.id);
  const extra = [
    container !== undefined && user !== undefined ? `as ${user}` : "",
    engine !== undefined ? `via ${engine}` : "",
    sandbox !== undefined ? `sandbox ${sandbox}` : "",
  ].filter(Boolean);
  return `environment: ${kind} ${where}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
}

function decisionLine(decision: AuditDecision): string {
  if (decision.environment) return environmentLine(decision.environment);
  const parts = [`${decision.gate}: ${decision.verdict}`];
  if (decision.rules?.length) parts.push(`[${decision.rules.join(", ")}]`);
  if (decision.path) {
    const where = decision.path.real ?? decision.path.input;
    parts.push(
      `${decision.path.access} ${where}${decision.path.root ? ` (root ${decision.path.root})` : ""}`,
    );
  }
  if (decision.changed?.length) parts.push(`changed ${decision.changed.join(", ")}`);
  if (decision.approvedBy)
    parts.push(
      decision.approved ? `approved by ${decision.approvedBy}` : `refused (${decision.approvedBy} approved)`,
    );
  if (decision.code && decision.verdict === "deny") parts.push(`(${decision.code})`);
  if (decision.reason) parts.push(`— ${decision.reason}`);
  return parts.join(" ");
}

function endLine(label: string, end: AuditEnd): string {
  const how: string[] = [end.errorCode ? `${end.status} (${end.errorCode})` : end.status];
  if (end.exitCode !== undefined) how.push(`exit code ${end.exitCode}`);
  if (end.signal) how.push(`signal ${end.signal}`);
  return `${label}: ${how.join(", ")} after ${seconds(end.durationMs)}`;
}

function cleanupLine(end: AuditEnd): string | undefined {
  const c = end.cleanup;
  if (!c) return undefined;
  const steps: string[] = [];
  if (c.timedOut) steps.push("timeout fired");
  if (c.termSent) steps.push("SIGTERM sent");
  if (c.killSent) steps.push("SIGKILL sent");
  steps.push(c.confirmed ? "all processes confirmed gone" : "NOT confirmed gone");
  if (c.pid !== undefined) steps.push(`pid ${c.pid}`);
  if (c.remainingPids?.length) steps.push(`still alive: ${c.remainingPids.join(" ")}`);
  if (c.note) steps.push(c.note);
  return `cleanup: ${steps.join(", ")}`;
}

function sideEffectLines(effect: AuditSideEffect): string[] {
  if (effect.method === "none") return [`none (${effect.note ?? "nothing changed"})`];
  const lines: string[] = [];
  if (effect.bounds) {
    const b = effect.bounds;
    lines.push(
      `snapshot of ${b.root}: ${b.entries} entries compared (at most ${b.maxEntries}, ${b.timeBudgetMs} ms)${b.complete ? "" : ", INCOMPLETE: stopped at a bound"}`,
    );
  }
  for (const file of effect.files) {
    const sizes =
      file.bytesBefore !== undefined && file.bytesAfter !== undefined
        ? `${file.bytesBefore} -> ${file.bytesAfter} bytes`
        : `${file.bytesAfter ?? file.bytesBefore ?? 0} bytes`;
    const hashes =
      file.sha256Before || file.sha256After
        ? `, sha256 ${file.sha256Before?.slice(0, 12) ?? "(new)"} -> ${file.sha256After?.slice(0, 12) ?? "(gone)"}`
        : "";
    lines.push(`${file.change} ${file.path} (${sizes}${hashes})`);
  }
  if (effect.files.length === 0 && effect.method === "snapshot") lines.push("no change seen");
  if (effect.blindSpots) lines.push(`cannot see: ${effect.blindSpots}`);
  return lines;
}

/** The six pieces of one call, each on its own labelled block, with how to read the output. */
export function formatAuditRecord(record: AuditCallRecord): string {
  const intent = record.intent;
  const header = `Call ${record.callId}  ${record.tool ?? "?"}  requested by ${intent?.requestedBy ?? "?"}${record.sessionId ? `  session ${record.sessionId}` : ""}${intent?.turnId ? `  ${intent.turnId}` : ""}`;
  const blocks = [header];
  blocks.push(
    piece("1 Intent", intent ? [`${clock(intent.at)}  ${intent.tool} ${intent.args}`] : ["not recorded"]),
  );
  blocks.push(piece("2 Decisions", record.decisions.map(decisionLine)));
  const spawn = record.spawn;
  blocks.push(
    piece(
      "3 Spawn",
      spawn
        ? [
            `${spawn.shell} in ${spawn.cwd}, ${spawn.background ? `background job ${spawn.jobId ?? "?"}` : "foreground"}${spawn.timeoutMs !== undefined ? `, timeout ${seconds(spawn.timeoutMs)}` : ""}`,
            ...(spawn.command !== undefined ? [`$ ${commandLine(spawn.command, spawn.commandChars)}`] : []),
            `run marker TACKLE_RUN_ID=${spawn.runId ?? "?"}${spawn.pid !== undefined ? `, pid ${spawn.pid}` : ""}`,
            `environment names: ${spawn.env.set.join(" ")}${spawn.env.removedPattern ? `; removed: names matching ${spawn.env.removedPattern}` : ""}`,
          ]
        : ["none (no process started)"],
    ),
  );
  blocks.push(piece("4 Output", outputLines(record)));
  const endLines: string[] = [];
  if (record.processEnd) {
    endLines.push(endLine("process", record.processEnd));
    const cleanup = cleanupLine(record.processEnd);
    if (cleanup) endLines.push(cleanup);
    if (record.processEnd.howToCheck) endLines.push(`check: ${record.processEnd.howToCheck}`);
  }
  if (record.end) endLines.push(endLine("call", record.end));
  else
    endLines.push(
      `NOT ENDED: no end was recorded (last event ${clock(record.lastAt)}); the host stopped during the call, or it still runs.`,
    );
  blocks.push(piece("5 End", endLines));
  blocks.push(
    piece(
      "6 Changes",
      record.sideEffects.length > 0 ? record.sideEffects.flatMap(sideEffectLines) : ["none recorded"],
    ),
  );
  // Only calls that changed a file of a known language have this piece.
  if (record.diagnostics.length > 0)
    blocks.push(piece("7 Diagnostics", record.diagnostics.map(diagnosticsLine)));
  return blocks.join("\n");
}

/** `src/a.ts: syntax broken (typescript, line 9: missing ")"); pyright 2 errors, 0 warnings in 840 ms`. */
function diagnosticsLine(event: AuditCallRecord["diagnostics"][number]): string {
  const first = event.syntax.problems?.[0];
  const where = first ? `, line ${first.line}: ${first.message}` : "";
  const syntax = `syntax ${event.syntax.status.replace("_", " ")} (${event.syntax.language ?? "unknown language"}${where})`;
  const server = event.server
    ? event.server.status === "skipped"
      ? `; ${event.server.provider} skipped (${event.server.reason ?? "no reason"}) after ${event.server.elapsedMs} ms`
      : `; ${event.server.provider} ${event.server.errors} errors, ${event.server.warnings} warnings in ${event.server.elapsedMs} ms`
    : "";
  return `${event.path}: ${syntax}${server}`;
}

function outputLines(record: AuditCallRecord): string[] {
  const out = record.output;
  if (!out) return ["none recorded"];
  const lines: string[] = [];
  if (out.totalBytes !== undefined) {
    const streams = out.streamsMerged
      ? "both streams in one file"
      : `stdout ${out.stdoutBytes ?? 0} bytes, stderr ${out.stderrBytes ?? 0} bytes${out.chunks !== undefined ? `, ${out.chunks} chunks` : ""}`;
    lines.push(`${formatBytes(out.totalBytes)} (${streams})`);
  }
  if (out.firstOutputAt || out.lastOutputAt) {
    const timing = out.timing === "polled" ? ` (seen by polling every ${out.resolutionMs} ms)` : "";
    lines.push(`first output ${clock(out.firstOutputAt)}, last ${clock(out.lastOutputAt)}${timing}`);
  }
  if (out.shown) {
    const cut = out.shown.cut
      ? `, cut${out.shown.cutBy ? ` by ${out.shown.cutBy}` : ""}: the model saw the end`
      : "";
    lines.push(
      `model saw ${out.shown.lines} of ${out.shown.totalLines ?? "?"} lines, ${formatBytes(out.shown.bytes)}${cut}`,
    );
  }
  if (out.result) {
    lines.push(
      `result: ${out.result.blocks} block(s), ${formatBytes(out.result.textBytes)} of text${out.result.images ? `, ${out.result.images} image(s)` : ""}`,
    );
  }
  const redactions = Object.entries(out.redactions ?? {});
  if (redactions.length > 0)
    lines.push(`redacted: ${redactions.map(([kind, n]) => `${kind} x${n}`).join(", ")}`);
  if (out.artifact) {
    const a = out.artifact;
    lines.push(`whole output: ${a.path} (${formatBytes(a.size)}${a.sha256 ? `, sha256 ${a.sha256}` : ""})`);
    lines.push(
      `read a window of it (while it is kept; add the --env it ran in): tackle tool read '${JSON.stringify({ path: a.path, offset: 1, limit: 200 })}'`,
    );
  }
  return lines;
}
