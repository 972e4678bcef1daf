/** A background job as recorded on disk, and what the registry needs from an environment. */
import type { Operations } from "@tackle/operations";
import type { ToolShell } from "./run-outcome.js";

/** What the job registry needs from an environment. */
export type JobOperations = Pick<
  Operations,
  | "platform"
  | "homeDir"
  | "exec"
  | "stat"
  | "openRead"
  | "readFile"
  | "writeFile"
  | "readdir"
  | "mkdir"
  | "chmod"
  | "remove"
>;

/** Where a job is in its life. `orphaned`: its host process died while it was running. */
export type JobStatus = "running" | "completed" | "failed" | "killed" | "timed-out" | "unknown" | "orphaned";

/** A background job as stored on disk (one JSON file per job in the state directory). */
export interface JobRecord {
  id: string;
  shell: ToolShell;
  command: string;
  cwd: string;
  /** Environment marker value the job's processes carry (used to end escaped children). */
  runId: string;
  /** Output of the job (both streams, arrival order), 0600. */
  logPath: string;
  startedAt: number;
  endedAt?: number;
  status: JobStatus;
  exitCode?: number;
  signal?: string;
  /** Keep running when the owning context is disposed. */
  keepAlive: boolean;
  sessionId: string;
  /** Host process that started it: a record whose owner is gone is listed as orphaned. */
  owner: { registry: string; pid: number; host: string };
  /** Processes that could not be confirmed ended (status `unknown`). */
  remainingPids?: number[];
  /**
   * How its process tree was ended, when the environment ended it (killed, timed out) or checked
   * it (every job): the kill steps sent and whether everything was seen gone, escaped processes
   * included.
   */
  cleanup?: JobCleanup;
}

/** The kill steps of a job's end and what was confirmed (see `ExecCleanup`). */
export interface JobCleanup {
  termSent: boolean;
  killSent: boolean;
  /** The tree, and every process carrying the job's marker that was looked for, was seen gone. */
  confirmed: boolean;
  /** Processes that left the job's group were looked for by its marker (see `ExecCleanup`). */
  escapesChecked: boolean;
  /** Process group id the stop signalled. */
  pid?: number;
  note?: string;
}

/** A slice of a job's output. */
export interface JobTail {
  /** Sanitised text from `offset` (a partial first line is dropped when the slice starts mid-line). */
  text: string;
  /** Byte offset the slice starts at. */
  offset: number;
  /** Offset to pass next time to continue. */
  nextOffset: number;
  /** Bytes in the log now. */
  size: number;
}
