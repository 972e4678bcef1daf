import { readFileSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { runningProcessStart, type TempFileOwner, tempFileDomain } from "@tackle/operations";

let self: TempFileOwner | undefined;

/**
 * This process as the owner of the temp files its writes create: the domain of its process
 * table (boot id and pid namespace), its pid and its start time. Without /proc (not Linux) the
 * domain falls back to the host name and the start time to `"0"`; a pid alone then decides
 * liveness, which can only keep a leftover too long (pid reused), never remove a live one.
 */
export function localWriter(): TempFileOwner {
  self ??= readWriter();
  return self;
}

function readWriter(): TempFileOwner {
  try {
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8");
    const namespace = readlinkSync("/proc/self/ns/pid");
    const start = runningProcessStart(readFileSync("/proc/self/stat", "utf8")) ?? "0";
    return { domain: tempFileDomain(bootId, namespace), pid: process.pid, start };
  } catch {
    return { domain: tempFileDomain(`host:${hostname()}`, "no-proc"), pid: process.pid, start: "0" };
  }
}

/**
 * Start time of the process with `pid` on this machine (the format of {@link localWriter}'s
 * `start`), or `undefined` when none runs.
 */
export async function localProcessStart(pid: number): Promise<string | undefined> {
  if (localWriter().start === "0") {
    try {
      process.kill(pid, 0);
      return "0";
    } catch (error) {
      // EPERM: the process exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === "EPERM" ? "0" : undefined;
    }
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat === undefined ? undefined : runningProcessStart(stat);
}
