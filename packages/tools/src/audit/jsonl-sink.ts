import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { AuditEvent, AuditSink } from "@tackle/agent-core";
import { AUDIT_EVENT_VERSION } from "@tackle/agent-core";
import { markRedacting, redactAuditEvent } from "./redact.js";

/** Options of {@link createJsonlAuditSink}. */
export interface JsonlAuditSinkOptions {
  /** Also `fsync` after each event (survives power loss, not only a crash of the host). Default false. */
  fsync?: boolean;
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
 * `write` on a descriptor opened for appending before `append` returns, so a host killed mid-call
 * leaves every event recorded up to then (at worst a torn last line, which
 * {@link readAuditFile} skips and reports). The file and its new directories are private (0600,
 * 0700). Several processes may append to one file: each line is one `O_APPEND` write.
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
  const sink: JsonlAuditSink = {
    path,
    get dropped() {
      return dropped;
    },
    append(event) {
      if (fd === undefined) return;
      try {
        writeSync(fd, `${JSON.stringify(redactAuditEvent(event))}\n`);
        if (options.fsync) fsyncSync(fd);
      } catch {
        dropped++;
      }
    },
    async flush() {
      if (fd !== undefined) fsyncSync(fd);
    },
    async close() {
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
}

/** Reads a JSONL audit file. A torn last line and foreign lines are skipped and reported, never fatal. */
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
    if (isAuditEvent(event)) events.push(event);
    else skippedLines.push(index + 1);
  });
  return { events, tornLastLine, skippedLines };
}

function isAuditEvent(value: unknown): value is AuditEvent {
  const event = value as Partial<AuditEvent> | null;
  return (
    typeof event === "object" &&
    event !== null &&
    event.v === AUDIT_EVENT_VERSION &&
    typeof event.callId === "string" &&
    typeof event.kind === "string" &&
    typeof event.at === "string"
  );
}
