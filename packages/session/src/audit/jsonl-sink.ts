import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { AuditEvent, AuditSink } from "@tackle/agent-core";
import { AUDIT_EVENT_VERSION } from "@tackle/agent-core";
import { auditEventJson } from "./event-json.js";
import { auditEventProblem } from "./event-shape.js";
import { markRedacting } from "./redact.js";

/**
 * Longest an event waits to be written (ms) while its call runs. A call's end is written at once,
 * with the events still pending, so most calls take one write; a call that runs longer (a
 * command, a large file) has its intent and spawn on disk within this delay.
 */
export const AUDIT_WRITE_DELAY_MS = 20;

/** Pending writes of every open sink: what a process still holds when it exits goes out too. */
const openSinks = new Set<() => void>();
let exitHooked = false;

function writeOnExit(writePending: () => void): void {
  openSinks.add(writePending);
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const write of openSinks) write();
  });
}

/** Options of {@link createJsonlAuditSink}. */
export interface JsonlAuditSinkOptions {
  /** Also `fsync` after each write (survives power loss, not only a crash of the host). Default false. */
  fsync?: boolean;
  /**
   * Write each event before `append` returns. Default false: a call's events go out together, in
   * the write of its end or after {@link AUDIT_WRITE_DELAY_MS} if it runs longer, which costs a
   * fraction per call and loses, on a crash, at most what the last delay recorded.
   */
  writeEachEvent?: boolean;
}

/** A sink that appends to a JSONL file, and the file it writes. */
export interface JsonlAuditSink extends AuditSink {
  readonly path: string;
  /** Events dropped because the file could not be written (e.g. disk full). */
  readonly dropped: number;
  /** `fsync`s the file (each event is already written when `append` returns). */
  flush(): Promise<void>;
  /** Closes the file; later events are dropped. */
  close(): Promise<void>;
}

/**
 * An append-only JSONL audit file on this host: one redacted event per line, written with one
 * `write` on a descriptor opened for appending. An end (of a call, or of its process: a
 * background job's) is written before `append` returns, together with every event still pending: when `invokeTool` or the
 * loop has a call's outcome, its record is with the OS. Other events wait at most
 * {@link AUDIT_WRITE_DELAY_MS} (a short call's events so share its end's write). A host killed
 * mid-call so leaves every event recorded up to that delay before (at worst a torn last line,
 * which {@link readAuditFile} skips and reports); `writeEachEvent` narrows that to the event. The file and its new directories are private (0600, 0700). Several processes may append
 * to one file: their writes do not interleave within a line.
 *
 * @example
 * ```ts
 * const audit = createJsonlAuditSink("/var/log/tackle/audit.jsonl");
 * const context = createToolContext({ cwd, operations, audit });
 * ```
 */
export function createJsonlAuditSink(path: string, options: JsonlAuditSinkOptions = {}): JsonlAuditSink {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number | undefined = openSync(path, "a", 0o600);
  // An existing file keeps whatever mode it had; an audit trail is private.
  fchmodSync(fd, 0o600);
  let dropped = 0;
  // Events recorded and not yet turned into text, then lines not yet written.
  let recorded: AuditEvent[] = [];
  let pending: string[] = [];
  let scheduled = false;
  let encodeScheduled = false;
  // One timer for the sink's life, re-armed (`refresh`) for each call's first event: a new
  // timer per call lives its 20 ms into the old generation, and a call a millisecond long so
  // paid for full collections.
  let timer: NodeJS.Timeout | undefined;

  /** Turns the recorded events into lines (an event that cannot be written is dropped). */
  const encodeRecorded = () => {
    encodeScheduled = false;
    if (recorded.length === 0) return;
    const events = recorded;
    recorded = [];
    for (const event of events) {
      try {
        pending.push(`${auditEventJson(event)}\n`);
      } catch {
        dropped++;
      }
    }
  };

  /**
   * Writes the pending lines in one `write`, of the text itself (no buffer to allocate); a short
   * write, rare on a local file, is continued from the bytes.
   */
  const writePending = () => {
    scheduled = false;
    encodeRecorded();
    if (fd === undefined || pending.length === 0) return;
    const lines = pending;
    pending = [];
    const text = lines.join("");
    try {
      let written = writeSync(fd, text);
      // Each UTF-16 unit is at least one byte: as many bytes as units is all of an ASCII text.
      if (written !== text.length && written < Buffer.byteLength(text, "utf8")) {
        const bytes = Buffer.from(text, "utf8");
        while (written < bytes.length) written += writeSync(fd, bytes, written);
      }
      if (options.fsync) fsyncSync(fd);
    } catch {
      dropped += lines.length;
    }
  };
  writeOnExit(writePending);

  const sink: JsonlAuditSink = {
    path,
    get dropped() {
      return dropped;
    },
    append(event) {
      if (fd === undefined) return;
      recorded.push(event);
      // An end is written before `append` returns, with whatever is pending: the host resolves
      // the call right after (or a job's waiter learns it ended), and a host killed then must
      // not lose it.
      if (options.writeEachEvent || event.kind === "end") writePending();
      else if (!scheduled) {
        scheduled = true;
        // Soon, not at once: a call that ends within the delay has all its events in the one
        // write of its end; a longer one (a running command) has them on disk after the delay.
        // Nothing was pending, so moving the timer's deadline delays no earlier event.
        if (timer === undefined) timer = setTimeout(writePending, AUDIT_WRITE_DELAY_MS).unref();
        else timer.refresh();
        if (!encodeScheduled) {
          encodeScheduled = true;
          // The text is made in the next turn of the event loop: the call is then usually
          // waiting on its first I/O, and the time the host would wait pays for it. What is
          // left is encoded with the end, before `append` returns.
          setImmediate(encodeRecorded);
        }
      }
    },
    async flush() {
      writePending();
      if (fd !== undefined) fsyncSync(fd);
    },
    async close() {
      if (timer !== undefined) clearTimeout(timer);
      writePending();
      openSinks.delete(writePending);
      if (fd === undefined) return;
      const closing = fd;
      fd = undefined;
      closeSync(closing);
    },
  };
  markRedacting(sink);
  return sink;
}

/** What {@link readAuditFile} found. */
export interface AuditFileContents {
  events: AuditEvent[];
  /** The last line was cut off mid-write (the writer was killed): skipped. */
  tornLastLine: boolean;
  /** Other lines that are not events of a known version (1-based line numbers). */
  skippedLines: number[];
  /**
   * Of the skipped lines, those that are JSON of this event version but not of an event's shape
   * (a field missing or of another type), with what is wrong: never handed to a reader.
   */
  invalidEvents: { line: number; problem: string }[];
}

/**
 * Reads a JSONL audit file. A torn last line, foreign lines and events of a wrong shape are
 * skipped and reported, never fatal: every event returned has the fields its kind promises.
 */
export async function readAuditFile(path: string): Promise<AuditFileContents> {
  const text = await readFile(path, "utf8");
  return parseAuditLines(text);
}

/** Parses JSONL audit text (see {@link readAuditFile}). */
export function parseAuditLines(text: string): AuditFileContents {
  const lines = text.split("\n");
  const complete = text.endsWith("\n");
  if (complete) lines.pop();
  const events: AuditEvent[] = [];
  const skippedLines: number[] = [];
  const invalidEvents: AuditFileContents["invalidEvents"] = [];
  let tornLastLine = false;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const last = index === lines.length - 1;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      if (last && !complete) tornLastLine = true;
      else skippedLines.push(index + 1);
      return;
    }
    const problem = auditEventProblem(event);
    if (problem === undefined) {
      events.push(event as AuditEvent);
      return;
    }
    skippedLines.push(index + 1);
    // A line of another version is foreign, not broken: only this version's lines are reported.
    if ((event as { v?: unknown } | null)?.v === AUDIT_EVENT_VERSION)
      invalidEvents.push({ line: index + 1, problem });
  });
  return { events, tornLastLine, skippedLines, invalidEvents };
}
