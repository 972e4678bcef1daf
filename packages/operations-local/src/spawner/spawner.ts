import type { Readable } from "node:stream";

/**
 * What one descriptor of a new process is connected to.
 * - `"ignore"`: /dev/null.
 * - `"pipe"`: a pipe the host reads (`stdout` and `stderr` of the {@link SpawnedProcess}).
 * - `"hold"`: a pipe into the process kept for another process to write into (`{ heldBy }`).
 * - `{ input }`: a pipe that receives these bytes at once and is then closed.
 * - `{ file, flags }`: the file opened with these `fs.open` flags (created 0600), e.g. the
 *   output file the shell appends to itself.
 * - `{ heldBy }`: the `"hold"` pipe of a process started earlier by the same spawner.
 *
 * The same slot object given at two positions is one descriptor (one open file description, as
 * `2>&1` makes it), not two opens of the file.
 */
export type StdioSlot =
  | "ignore"
  | "pipe"
  | "hold"
  | { input: Uint8Array }
  | { file: string; flags: "a" | "r" }
  | { heldBy: SpawnedProcess };

/** One process to start. */
export interface SpawnRequest {
  file: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Lead a new process group (and session). */
  detached?: boolean;
  /** Descriptor 0, 1, 2, 3... of the process. */
  stdio: StdioSlot[];
  /**
   * After the exit, how long the pipes are still read: until `idleGraceMs` passed without
   * output (a background child may hold them for ever), at most `maxMs` after the exit. A
   * spawner that relays the output applies it where the pipes are read (see
   * {@link SpawnedProcess.drainsItself}); a direct spawn leaves it to the caller.
   */
  drain?: { idleGraceMs: number; maxMs: number };
}

/**
 * A started process, as the adapter's code uses one: the part of Node's `ChildProcess` that
 * both ways of spawning provide. `exit` and `close` carry `(code, signal)`; `close` comes after
 * `exit` once every pipe ended.
 */
export interface SpawnedProcess {
  readonly pid: number;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  /**
   * The spawner ends `stdout` and `stderr` itself after the exit, by the request's `drain`: the
   * caller waits for their end and applies no grace of its own (relayed output arrives later
   * than the exit report, by however long the relay takes on a loaded machine).
   */
  readonly drainsItself?: boolean;
  kill(signal?: NodeJS.Signals): boolean;
  once(
    event: "exit" | "close",
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): SpawnedProcess;
}

/**
 * Starts processes for the adapter. `spawn` resolves once the process runs, or rejects with the
 * system error (`code` such as `ENOENT`) the caller turns into its own typed error.
 */
export interface Spawner {
  spawn(request: SpawnRequest): Promise<SpawnedProcess>;
  /** Closes the host's side of a `"hold"` pipe once another process holds it. */
  releaseHeld(process: SpawnedProcess): void;
  /**
   * True when the process's spawner was lost before its exit was known: its `exit` then
   * carries no code and the caller ends its tree and fails the call (`connection_lost`).
   */
  lost(process: SpawnedProcess): boolean;
  /** Stops what the spawner runs of its own (the helper process); resolves once it is gone. */
  dispose(): Promise<void>;
}

/**
 * How the local adapter starts processes.
 * - `"direct"`: Node's `child_process.spawn` in the host process.
 * - `"helper"`: a small helper process (started on first use) spawns them and relays their
 *   output; the host never forks.
 * - `"auto"` (default): on Linux, the helper while the host's resident memory is at or above
 *   `SPAWN_HELPER_RSS_BYTES`, directly below it; elsewhere directly.
 */
export type SpawnerMode = "direct" | "helper" | "auto";
