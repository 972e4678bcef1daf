import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { forEachLimited, PROC_READS_AT_ONCE, procPids, SharedScan } from "./proc-scan.js";

/**
 * Everything that identifies one command's processes: its process group, the pids seen so far,
 * and (Linux) a random marker in the environment every descendant inherits.
 */
export interface CommandTree {
  pgid: number;
  /** Pids found so far; grows with each walk, so a tree is still followed after its leader exited. */
  known: Set<number>;
  /** `NAME=value` set in the command's environment; finds processes that left both group and parent. */
  marker?: string;
  /** When the command started (`Date.now()`); bounds which pids the marker scan reads. */
  startedAt?: number;
  /**
   * The command runs in a sandbox's pid namespace: its init (bwrap) exits a moment after the
   * outer process reports the shell's exit, so a tree that looks busy is given
   * {@link SANDBOX_SETTLE_MS} to empty by itself before anything is signalled.
   */
  sandboxed?: boolean;
}

/** How long a sandbox's init may take to exit on its own after the shell exited. */
const SANDBOX_SETTLE_MS = 50;

/**
 * Up to this age, the marker scan reads only pids allocated since the command's own (Linux
 * hands out pids cyclically, and a pid from before the command cannot carry its marker). An
 * older command might have seen the pid counter wrap all the way round, so every pid is read.
 */
const RECENT_PIDS_ONLY_MS = 1000;

/** One live process as the kernel reports it. */
interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
}

/**
 * Live (non-zombie) processes of the machine. Linux: read from /proc, no child process (one
 * shared scan for every command asking at the same time). Other POSIX systems: one `ps` call. A
 * zombie counts as gone: it runs nothing and only waits for its parent (possibly an init that
 * never reaps it) to collect its status.
 */
async function listProcesses(): Promise<ProcessInfo[]> {
  if (process.platform === "linux") return processListing.request(undefined);
  return listFromPs();
}

const processListing = new SharedScan<undefined, ProcessInfo[]>(async (requests) => {
  const listing = await listFromProc();
  return requests.map(() => listing);
});

async function listFromProc(): Promise<ProcessInfo[]> {
  const result: ProcessInfo[] = [];
  await forEachLimited(await procPids(), PROC_READS_AT_ONCE, async (pid) => {
    const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const [state, ppid, pgid] = fields;
    if (!state || state === "Z" || state === "X") return;
    result.push({ pid, ppid: Number(ppid), pgid: Number(pgid) });
  });
  return result;
}

function listFromPs(): Promise<ProcessInfo[]> {
  return new Promise((resolve) => {
    execFile("ps", ["-A", "-o", "pid=,ppid=,pgid=,stat="], (error, stdout) => {
      if (error) return resolve([]);
      const result: ProcessInfo[] = [];
      for (const line of stdout.split("\n")) {
        const [pid, ppid, pgid, state] = line.trim().split(/\s+/);
        if (!pid || !state || state.startsWith("Z")) continue;
        result.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid) });
      }
      resolve(result);
    });
  });
}

/**
 * Pids whose environment holds the tree's marker (Linux; elsewhere none). Catches what the tree
 * walk cannot: a child that left with `setsid` and whose parent already exited, so it hangs off
 * init in a group of its own. Only processes that clear their environment escape this.
 * Processes of other users are unreadable and skipped (they could not be signalled anyway).
 */
export async function findMarked(tree: CommandTree): Promise<number[]> {
  const { marker } = tree;
  if (marker === undefined || process.platform !== "linux") return [];
  const recent =
    tree.startedAt !== undefined && Date.now() - tree.startedAt <= RECENT_PIDS_ONLY_MS
      ? await allocatedSince(tree.pgid)
      : undefined;
  return markerScan.request({ needle: Buffer.from(`${marker}\0`), recent });
}

/** One marker search: the `NAME=value\0` bytes, and which pids can carry them (all when undefined). */
interface MarkerRequest {
  needle: Buffer;
  recent: ((pid: number) => boolean) | undefined;
}

/** Reads each candidate's environment once for every command searching at the same time. */
const markerScan = new SharedScan<MarkerRequest, number[]>(async (requests) => {
  const found = requests.map((): number[] => []);
  const wanted = (pid: number) => requests.some((request) => request.recent?.(pid) ?? true);
  const candidates = (await procPids()).filter((pid) => pid !== process.pid && wanted(pid));
  await forEachLimited(candidates, PROC_READS_AT_ONCE, async (pid) => {
    const environ = await readEnviron(pid);
    if (environ === undefined) return;
    requests.forEach((request, index) => {
      if (!(request.recent?.(pid) ?? true)) return;
      const at = environ.indexOf(request.needle);
      // Whole variable only: at the start, or right after the NUL that ends the one before.
      if (at === 0 || (at > 0 && environ[at - 1] === 0)) found[index]?.push(pid);
    });
  });
  return found;
});

/**
 * How often an empty environment is read again. A process in the middle of `execve` (between
 * dropping its old memory and laying out the new program's stack) reads as empty although it
 * still carries the marker: a `setsid sleep` caught at that moment would be missed. Waits
 * 1, 2, 4, ... ms between reads, about a quarter of a second in all.
 */
const EMPTY_ENVIRON_RETRIES = 8;

/**
 * How long to keep reading while the command line reads empty too: that is the signature of a
 * process inside `execve` (a program started with an empty environment still has its
 * arguments), so a loaded machine gets this long to finish the exec.
 */
const INSIDE_EXEC_WAIT_MS = 2000;

/** Set in the flags field of /proc/PID/stat for kernel threads, which have no environment. */
const PF_KTHREAD = 0x00200000;

/**
 * A process's environment (`NAME=value\0...`), read again while it is empty and the process
 * is a live user process (so possibly between two programs). Undefined when unreadable.
 */
async function readEnviron(pid: number): Promise<Buffer | undefined> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
    if (environ === undefined || environ.length > 0) return environ;
    const state = await execState(pid);
    if (state === "settled") return environ;
    const waitMore =
      state === "inside-exec" ? Date.now() - started < INSIDE_EXEC_WAIT_MS : attempt < EMPTY_ENVIRON_RETRIES;
    if (!waitMore) return environ;
    await new Promise((resolve) => setTimeout(resolve, 2 ** Math.min(attempt, 6)));
  }
}

/**
 * Why an environment read empty: `settled` for a kernel thread, a zombie or a process that is
 * gone (those read empty for good); `inside-exec` when the command line reads empty too; else
 * `running` (started with an empty environment, or its exec finished since the read).
 */
async function execState(pid: number): Promise<"settled" | "inside-exec" | "running"> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const [state] = fields;
  const flags = Number(fields[6]);
  if (!state || state === "Z" || state === "X") return "settled";
  if (!Number.isFinite(flags) || (flags & PF_KTHREAD) !== 0) return "settled";
  const cmdline = await readFile(`/proc/${pid}/cmdline`).catch(() => undefined);
  if (cmdline === undefined) return "settled";
  return cmdline.length === 0 ? "inside-exec" : "running";
}

/**
 * A test for "allocated after `first`": pids in the cyclic range (first, last], where `last` is
 * the most recently allocated pid (the last field of /proc/loadavg). Undefined when unknown.
 */
async function allocatedSince(first: number): Promise<((pid: number) => boolean) | undefined> {
  const text = await readFile("/proc/loadavg", "utf8").catch(() => "");
  const last = Number(text.trim().split(/\s+/)[4]);
  if (!Number.isInteger(last) || last <= 0) return undefined;
  return last >= first ? (pid) => pid > first && pid <= last : (pid) => pid > first || pid <= last;
}

/**
 * Every live process that belongs to a command: its process group, all descendants of the
 * `known` pids (a descendant may have moved to its own group or session with `setsid`), and
 * the processes carrying its environment marker, with their descendants. Adds what it finds to
 * `tree.known`.
 */
export async function findTree(tree: CommandTree): Promise<Set<number>> {
  const [processes, marked] = await Promise.all([listProcesses(), findMarked(tree)]);
  const children = new Map<number, number[]>();
  for (const info of processes) {
    const list = children.get(info.ppid) ?? [];
    list.push(info.pid);
    children.set(info.ppid, list);
  }
  const alive = new Set(processes.map((info) => info.pid));
  const found = new Set<number>();
  const queue: number[] = [];
  for (const info of processes) if (info.pgid === tree.pgid) queue.push(info.pid);
  for (const pid of [...tree.known, ...marked]) if (alive.has(pid)) queue.push(pid);
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    if (found.has(pid) || pid === process.pid) continue;
    found.add(pid);
    for (const child of children.get(pid) ?? []) queue.push(child);
  }
  for (const pid of found) tree.known.add(pid);
  return found;
}

/** Sends `signal` to the group and to every pid of the tree; processes already gone are skipped. */
export function signalTree(pgid: number, pids: Iterable<number>, signal: NodeJS.Signals): void {
  trySignal(-pgid, signal);
  for (const pid of pids) trySignal(pid, signal);
}

/** True when some process (a zombie too) is in group `pgid`. */
function groupExists(pgid: number): boolean {
  return pidExists(-pgid);
}

/** `kill(pid, 0)`: true unless the kernel says there is no such process (EPERM means it exists). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone. EPERM: not ours to end; confirmation will report it as still running.
  }
}

/** Polls until the tree is empty or `ms` passed; resolves true when it was observed empty. */
export async function waitForTreeGone(tree: CommandTree, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await findTree(tree)).size === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Which kill steps ran, for `ExecCleanup`. */
export interface TreeKillReport {
  termSent: boolean;
  killSent: boolean;
  confirmed: boolean;
}

/**
 * Ends a command's whole tree: SIGTERM to the group and every process of the tree, then SIGKILL
 * to what is left after `graceMs`, then confirms the tree is gone. Never throws.
 */
export async function endTree(tree: CommandTree, graceMs: number): Promise<TreeKillReport> {
  const report: TreeKillReport = { termSent: false, killSent: false, confirmed: false };
  try {
    // Fast path for the common clean exit: the group is empty, no known pid lives and nothing
    // carries the marker, so there is no tree to walk (a full listing costs a few ms more).
    const isQuiet = async () =>
      !groupExists(tree.pgid) &&
      [...tree.known].every((pid) => !pidExists(pid)) &&
      (await findMarked(tree)).length === 0;
    if (await isQuiet()) return { ...report, confirmed: true };
    if (tree.sandboxed && (await settles(isQuiet))) return { ...report, confirmed: true };
    const found = await findTree(tree);
    if (found.size === 0) return { ...report, confirmed: true };
    signalTree(tree.pgid, found, "SIGTERM");
    report.termSent = true;
    if (await waitForTreeGone(tree, graceMs)) return { ...report, confirmed: true };
    signalTree(tree.pgid, await findTree(tree), "SIGKILL");
    report.killSent = true;
    report.confirmed = await waitForTreeGone(tree, KILL_CONFIRM_MS);
  } catch {
    // Listing processes failed: report what was sent, unconfirmed.
  }
  return report;
}

/**
 * Polls `isQuiet` for up to {@link SANDBOX_SETTLE_MS}; true once it holds. The init usually ends
 * within a millisecond of the outer process: the first looks come soon (1, 2, 4 ms apart), later
 * ones further apart (at most 8 ms), so a call does not wait out a long first sleep.
 */
async function settles(isQuiet: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + SANDBOX_SETTLE_MS;
  for (let pause = 1; Date.now() < deadline; pause = Math.min(pause * 2, 8)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (await isQuiet()) return true;
  }
  return false;
}

/** How long to wait for SIGKILL to take effect before reporting the tree as unconfirmed. */
const KILL_CONFIRM_MS = 2000;
