import { access, readdir, readFile } from "node:fs/promises";
import { vi } from "vitest";

/**
 * Live (non-zombie) pids of process group `pgid` on this machine. The test sshd runs here, so
 * the test can check with its own eyes what the adapter claims about the remote side.
 */
export async function livePidsOfGroup(pgid: number): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(group) === pgid && state !== "Z" && state !== "X") found.push(Number(name));
  }
  return found;
}

/** Waits (vitest's `vi.waitFor`) until `check`'s value is `ok` or `ms` passed; returns the last value. */
export async function eventually<T>(
  check: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = 5000,
): Promise<T> {
  try {
    return await vi.waitFor(
      async () => {
        const value = await check();
        if (!ok(value)) throw new Error("not yet");
        return value;
      },
      { timeout: ms, interval: 50 },
    );
  } catch {
    // The caller asserts on the value as it is now, so a failure shows what was found.
    return await check();
  }
}

/** SIGKILL by pid, test processes only (never by name); one that ended since it was listed is fine. */
export function killIfRunning(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Waits until `path` exists (polling, at most `ms`); resolves whether it does. */
export function untilExists(path: string, ms = 5000): Promise<boolean> {
  return eventually(
    () =>
      access(path).then(
        () => true,
        () => false,
      ),
    (exists) => exists,
    ms,
  );
}
