import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { type AuditRecorder, NO_AUDIT } from "@tackle/agent-core";
import { StaleContextError } from "@tackle/extensions";
import type { ExecResult, SandboxOptions } from "@tackle/operations";
import { isOperationError } from "@tackle/operations";
import { recordJobEnd, recordSpawn } from "../audit/shell-audit.js";
import { DEFAULTS } from "../defaults.js";
import { incompleteUtf8Suffix } from "./capture.js";
import {
  buildShellEnv,
  envFilterPrelude,
  newRunId,
  SECRET_NAME_PATTERN,
  type ShellEnvOptions,
} from "./env.js";
import { type EscapeHuntResult, escapesAlreadyEnded, huntEscapedProcesses } from "./escape.js";
import type { JobOperations, JobRecord, JobTail } from "./job-record.js";
import { readRange } from "./read-back.js";
import type { ToolShell } from "./run-outcome.js";
import { sanitizeOutput } from "./sanitize.js";

export type { JobCleanup, JobOperations, JobRecord, JobStatus, JobTail } from "./job-record.js";

/** Options of {@link createJobRegistry}. */
export interface JobRegistryOptions {
  operations: JobOperations;
  sessionId: string;
  /** Directory for job records and logs (absolute). Default `<home>/.tackle/jobs` or `/tmp/tackle-jobs`. */
  stateDir?: string;
  env?: ShellEnvOptions;
  killGraceMs?: number;
  /**
   * Bytes of a job's log (default `DEFAULTS.shellOutputMaxBytes`), enforced where the log is
   * written: past it the log keeps its first and last half (the tail appended when the job
   * ends), as a foreground command's artifact does, so a forgotten server logging in a loop
   * cannot fill the disk.
   */
  maxOutputBytes?: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Background jobs of one session: started through `ops.exec` with the output written by the
 * environment into a log, tracked on disk so a later host process sees them (as `orphaned`
 * when their host died), ended on `dispose()` unless `keepAlive`.
 */
export class JobRegistry {
  readonly registryId = randomBytes(8).toString("hex");
  private disposed = false;
  private readonly ops: JobOperations;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<JobRecord> }>();
  private dirReady: Promise<string> | undefined;

  constructor(private readonly options: JobRegistryOptions) {
    this.ops = options.operations;
  }

  private sep(): string {
    return this.ops.platform === "win32" ? "\\" : "/";
  }

  /** The state directory, created (0700) on first use. */
  stateDir(): Promise<string> {
    this.dirReady ??= (async () => {
      const dir =
        this.options.stateDir ??
        (this.ops.homeDir ? `${this.ops.homeDir}${this.sep()}.tackle${this.sep()}jobs` : "/tmp/tackle-jobs");
      await this.ops.mkdir(dir, { recursive: true });
      await this.ops.chmod(dir, 0o700);
      return dir;
    })();
    return this.dirReady;
  }

  private async recordPath(id: string): Promise<string> {
    return `${await this.stateDir()}${this.sep()}${id}.json`;
  }

  private async save(record: JobRecord): Promise<void> {
    await this.ops.writeFile(await this.recordPath(record.id), `${JSON.stringify(record, null, 2)}\n`, {
      mode: 0o600,
    });
  }

  private async load(id: string): Promise<JobRecord | undefined> {
    if (!/^job-[0-9a-f]+$/.test(id)) return undefined;
    try {
      const bytes = await this.ops.readFile(await this.recordPath(id));
      return this.view(JSON.parse(Buffer.from(bytes).toString("utf8")) as JobRecord);
    } catch (error) {
      if (isOperationError(error, "not_found") || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  /** A record as this process sees it: running jobs whose owner died are `orphaned`. */
  private view(record: JobRecord): JobRecord {
    if (record.status !== "running" || record.owner.registry === this.registryId) return record;
    const ownerAlive = record.owner.host === hostname() && isAlive(record.owner.pid);
    return ownerAlive ? record : { ...record, status: "orphaned" };
  }

  /** Starts `command` in the background and returns its record at once. */
  async start(request: {
    shell: ToolShell;
    command: string;
    cwd: string;
    keepAlive?: boolean;
    timeoutMs?: number;
    /** The starting call's audit record: gets the spawn now and the process end when the job ends. */
    audit?: AuditRecorder;
    /** The job's sandbox (see `ShellPipelineOptions.sandbox`). */
    sandbox?: SandboxOptions | false;
  }): Promise<JobRecord> {
    // A job started now would outlive the session that should end it.
    if (this.disposed) throw new StaleContextError("the session of this job registry");
    const dir = await this.stateDir();
    const id = `job-${randomBytes(6).toString("hex")}`;
    const logPath = `${dir}${this.sep()}${id}.log`;
    await this.ops.writeFile(logPath, "", { mode: 0o600 });
    await this.ops.chmod(logPath, 0o600);
    const runId = newRunId();
    const record: JobRecord = {
      id,
      shell: request.shell,
      command: request.command,
      cwd: request.cwd,
      runId,
      logPath,
      startedAt: Date.now(),
      status: "running",
      keepAlive: request.keepAlive ?? false,
      sessionId: this.options.sessionId,
      owner: { registry: this.registryId, pid: process.pid, host: hostname() },
    };
    await this.save(record);
    const audit = request.audit ?? NO_AUDIT;
    const env = buildShellEnv(runId, this.options.env);
    const spawn = {
      shell: request.shell,
      cwd: request.cwd,
      command: request.command,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      background: true,
      env,
      removedPattern: this.options.env?.filter ?? SECRET_NAME_PATTERN,
      runId,
      outputPath: logPath,
      jobId: id,
    };
    // The call ends before the job's process starts: its spawn is recorded now, and its group id
    // in a second spawn event once the environment reports it (the record merges them).
    recordSpawn(audit, spawn);
    const controller = new AbortController();
    const execution = this.ops.exec(envFilterPrelude(request.shell, this.options.env) + request.command, {
      shell: request.shell,
      cwd: request.cwd,
      env,
      signal: controller.signal,
      outputPath: logPath,
      outputLimitBytes: this.options.maxOutputBytes ?? DEFAULTS.shellOutputMaxBytes,
      streamChunks: false,
      onSpawn: ({ pgid, sandbox }) =>
        recordSpawn(audit, { ...spawn, pid: pgid, ...(sandbox ? { sandbox } : {}) }),
      ...(request.sandbox !== undefined ? { sandbox: request.sandbox } : {}),
      killGraceMs: this.options.killGraceMs ?? DEFAULTS.killGraceMs,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    });
    const done = execution
      .then(
        (result) => this.finish(record, result, controller.signal.aborted),
        async () => this.finish(record, undefined, controller.signal.aborted),
      )
      .then((final) => recordJobEnd(audit, this.ops, final));
    this.running.set(id, { controller, done });
    return { ...record };
  }

  private async finish(
    record: JobRecord,
    result: ExecResult | undefined,
    killed: boolean,
  ): Promise<JobRecord> {
    const hunt =
      result && escapesAlreadyEnded(result)
        ? undefined
        : await huntEscapedProcesses(this.ops, record.runId, {
            cwd: record.cwd,
            graceMs: this.options.killGraceMs ?? DEFAULTS.killGraceMs,
          });
    const final: JobRecord = { ...record, endedAt: Date.now() };
    if (!result) final.status = "unknown";
    else if (killed || result.status === "cancelled") final.status = "killed";
    else
      final.status =
        result.status === "timed-out" ? "timed-out" : result.status === "unknown" ? "unknown" : result.status;
    if (result?.exitCode !== undefined) final.exitCode = result.exitCode;
    if (result?.signal !== undefined) final.signal = result.signal;
    const remaining = hunt?.remaining ?? [];
    if (remaining.length > 0) {
      final.status = "unknown";
      final.remainingPids = remaining;
    }
    if (result) {
      const { termSent, killSent, confirmed, pid, note } = result.cleanup;
      final.cleanup = {
        termSent,
        killSent,
        // Escaped processes count: the group gone with a marked process left is not "gone".
        confirmed: confirmed && remaining.length === 0,
        escapesChecked: hunt ? hunt.supported : (result.cleanup.escapesChecked ?? false),
        ...(pid !== undefined ? { pid } : {}),
        ...(note !== undefined ? { note } : {}),
      };
    }
    await this.save(final).catch(() => undefined);
    this.running.delete(record.id);
    return final;
  }

  /** Every job in the state directory (this session's and others'), newest first. */
  async list(): Promise<JobRecord[]> {
    const dir = await this.stateDir();
    const entries = await this.ops.readdir(dir);
    const records: JobRecord[] = [];
    for (const entry of entries) {
      if (!entry.name.endsWith(".json")) continue;
      const record = await this.load(entry.name.slice(0, -5));
      if (record) records.push(record);
    }
    return records.sort((a, b) => b.startedAt - a.startedAt);
  }

  /** One job, or undefined when no such id exists. */
  get(id: string): Promise<JobRecord | undefined> {
    return this.load(id);
  }

  /** Resolves when a job this registry started has ended (immediately for others). */
  async wait(id: string): Promise<JobRecord | undefined> {
    const entry = this.running.get(id);
    return entry ? entry.done : this.load(id);
  }

  /**
   * Output from byte `offset` on, at most `maxBytes` and `maxLines` (defaults `DEFAULTS`),
   * sanitised. Without `offset`: the end of the log, starting at a whole line.
   */
  async tail(
    id: string,
    options: { offset?: number; maxBytes?: number; maxLines?: number } = {},
  ): Promise<JobTail | undefined> {
    const record = await this.load(id);
    if (!record) return undefined;
    const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
    const size = (await this.ops.stat(record.logPath)).size;
    const fromEnd = options.offset === undefined;
    const offset = Math.min(size, Math.max(0, options.offset ?? size - maxBytes));
    const bytes = await readRange(this.ops, record.logPath, offset, Math.min(size, offset + maxBytes));
    const [start, cutEnd] = lineWindow(
      bytes,
      fromEnd && offset > 0,
      fromEnd,
      options.maxLines ?? DEFAULTS.maxLines,
    );
    // A page cut by bytes ends at its last whole line, so the next page starts at a line and a
    // secret is never split across two pages (half a token matches no format: both halves would
    // show). A single line longer than the page is cut where it must be.
    const lastNewline = bytes.lastIndexOf(0x0a, cutEnd - 1);
    const end =
      offset + cutEnd < size && bytes[cutEnd - 1] !== 0x0a && lastNewline >= start ? lastNewline + 1 : cutEnd;
    // Never end a slice inside a UTF-8 character: the next call starts where this one stopped.
    const keep = end - incompleteUtf8Suffix(bytes.subarray(start, end));
    const text = new TextDecoder("utf-8").decode(bytes.subarray(start, keep));
    return { text: sanitizeOutput(text), offset: offset + start, nextOffset: offset + keep, size };
  }

  /**
   * Ends a job: its process tree through the running exec (SIGTERM, then SIGKILL), then any
   * process still carrying its marker (escaped children, or an orphan of a dead host).
   */
  async kill(id: string): Promise<{ record: JobRecord; hunt?: EscapeHuntResult } | undefined> {
    const entry = this.running.get(id);
    if (entry) {
      entry.controller.abort();
      return { record: await entry.done };
    }
    const record = await this.load(id);
    if (!record) return undefined;
    if (record.status !== "running" && record.status !== "orphaned" && record.status !== "unknown")
      return { record };
    const hunt = await huntEscapedProcesses(this.ops, record.runId, {
      cwd: record.cwd,
      graceMs: this.options.killGraceMs ?? DEFAULTS.killGraceMs,
    });
    const final: JobRecord = {
      ...record,
      status: hunt.supported && hunt.remaining.length === 0 ? "killed" : "unknown",
      endedAt: Date.now(),
      ...(hunt.remaining.length > 0 ? { remainingPids: hunt.remaining } : {}),
    };
    await this.save(final);
    return { record: final, hunt };
  }

  /**
   * Waits until the job's output matches `pattern`, or `port` accepts connections on
   * 127.0.0.1 in the environment, or the job ends, or `timeoutMs` passes.
   */
  async waitReady(
    id: string,
    ready: { pattern?: RegExp; port?: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<"ready" | "ended" | "timeout"> {
    const deadline = Date.now() + ready.timeoutMs;
    for (;;) {
      if (ready.signal?.aborted) return "timeout";
      if (ready.pattern) {
        const tail = await this.tail(id, { maxBytes: 64 * 1024 });
        if (tail && ready.pattern.test(tail.text)) return "ready";
      }
      if (ready.port !== undefined && (await this.portOpen(ready.port))) return "ready";
      if (!this.running.has(id)) return "ended";
      if (Date.now() >= deadline) return "timeout";
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async portOpen(port: number): Promise<boolean> {
    const result = await this.ops.exec(`exec 3<>/dev/tcp/127.0.0.1/${Math.trunc(port)}`, {
      shell: "bash",
      cwd: "/",
      timeoutMs: 2000,
    });
    return result.status === "completed";
  }

  /**
   * Ends this registry's jobs that are not `keepAlive`; their records stay on disk. Later starts
   * fail with `stale_context`.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    const ends: Promise<unknown>[] = [];
    for (const [id] of this.running) {
      const record = await this.load(id);
      if (record && !record.keepAlive) ends.push(this.kill(id));
    }
    await Promise.all(ends);
  }
}

/**
 * The byte range `[start, end)` of `bytes` to show: without the partial first line when
 * `dropPartialFirst`, and at most `maxLines` lines, the last ones when `fromEnd`, else the first.
 */
function lineWindow(
  bytes: Uint8Array,
  dropPartialFirst: boolean,
  fromEnd: boolean,
  maxLines: number,
): [number, number] {
  let start = 0;
  const end = bytes.length;
  if (dropPartialFirst) {
    const newline = bytes.indexOf(0x0a);
    if (newline !== -1 && newline + 1 < bytes.length) start = newline + 1;
  }
  let lines = 0;
  if (fromEnd) {
    // A final newline ends the last line; it does not start another.
    for (let i = end - 2; i >= start; i--) {
      if (bytes[i] === 0x0a && ++lines === maxLines) return [i + 1, end];
    }
  } else {
    for (let i = start; i < end; i++) {
      if (bytes[i] === 0x0a && ++lines === maxLines) return [start, i + 1];
    }
  }
  return [start, end];
}

/** Creates the background job registry of a session. */
export function createJobRegistry(options: JobRegistryOptions): JobRegistry {
  return new JobRegistry(options);
}
