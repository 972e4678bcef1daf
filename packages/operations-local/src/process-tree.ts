import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/** One live process as the kernel reports it. */
interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
}

/**
 * Live (non-zombie) processes of the machine. Linux: read from /proc, no child process. Other
 * POSIX systems: one `ps` call. A zombie counts as gone: it runs nothing and only waits for its
 * parent (possibly an init that never reaps it) to collect its status.
 */
async function listProcesses(): Promise<ProcessInfo[]> {
  if (process.platform === "linux") return listFromProc();
  return listFromPs();
}

async function listFromProc(): Promise<ProcessInfo[]> {
  const names = await readdir("/proc");
  const result: ProcessInfo[] = [];
  await Promise.all(
    names.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      const text = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
      // The command name is in parentheses and may itself contain spaces or parentheses.
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const [state, ppid, pgid] = fields;
      if (!state || state === "Z" || state === "X") return;
      result.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid) });
    }),
  );
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
 * Every live process that belongs to a command: its process group `pgid` plus all descendants
 * of the `known` pids (a descendant may have moved to its own group or session with `setsid`).
 * `known` grows with what is found, so a tree is still followed after its leader has exited.
 */
export async function findTree(pgid: number, known: Set<number>): Promise<Set<number>> {
  const processes = await listProcesses();
  const children = new Map<number, number[]>();
  for (const info of processes) {
    const list = children.get(info.ppid) ?? [];
    list.push(info.pid);
    children.set(info.ppid, list);
  }
  const alive = new Set(processes.map((info) => info.pid));
  const found = new Set<number>();
  const queue: number[] = [];
  for (const info of processes) if (info.pgid === pgid) queue.push(info.pid);
  for (const pid of known) if (alive.has(pid)) queue.push(pid);
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    if (found.has(pid) || pid === process.pid) continue;
    found.add(pid);
    for (const child of children.get(pid) ?? []) queue.push(child);
  }
  for (const pid of found) known.add(pid);
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
export async function waitForTreeGone(pgid: number, known: Set<number>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await findTree(pgid, known)).size === 0) return true;
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
 * Ends a command's whole tree: SIGTERM to the group and every descendant, then SIGKILL to what
 * is left after `graceMs`, then confirms the tree is gone. Never throws.
 */
export async function endTree(pgid: number, known: Set<number>, graceMs: number): Promise<TreeKillReport> {
  const report: TreeKillReport = { termSent: false, killSent: false, confirmed: false };
  // Fast path for the common clean exit: the group is empty and no known pid lives, so there is
  // no tree to walk (a full process listing costs a few ms on a busy machine).
  if (!groupExists(pgid) && [...known].every((pid) => !pidExists(pid))) return { ...report, confirmed: true };
  try {
    const tree = await findTree(pgid, known);
    if (tree.size === 0) return { ...report, confirmed: true };
    signalTree(pgid, tree, "SIGTERM");
    report.termSent = true;
    if (await waitForTreeGone(pgid, known, graceMs)) return { ...report, confirmed: true };
    signalTree(pgid, await findTree(pgid, known), "SIGKILL");
    report.killSent = true;
    report.confirmed = await waitForTreeGone(pgid, known, KILL_CONFIRM_MS);
  } catch {
    // Listing processes failed: report what was sent, unconfirmed.
  }
  return report;
}

/** How long to wait for SIGKILL to take effect before reporting the tree as unconfirmed. */
const KILL_CONFIRM_MS = 2000;
