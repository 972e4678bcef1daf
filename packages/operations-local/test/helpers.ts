import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temp directory, removed after the current test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tackle-local-"));
  made.push(dir);
  return dir;
}

/** Fields of /proc/<pid>/stat after the command name, or undefined when the pid is gone. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** True while `pid` is a live (non-zombie) process. */
export function isAlive(pid: number): boolean {
  const state = procStat(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

/** Live processes whose parent is this test process and whose command name is `name`. */
export function liveChildrenNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    const fields = procStat(Number(entry));
    if (comm === name && fields && Number(fields[1]) === process.pid && isAlive(Number(entry))) {
      pids.push(Number(entry));
    }
  }
  return pids;
}
