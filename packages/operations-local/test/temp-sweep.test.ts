import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseTempFileName } from "@tackle/operations";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { isAlive, tempDir } from "./helpers.js";

const ops = createLocalOperations();
const WRITE_LOOP = fileURLToPath(new URL("./fixtures/write-loop.mjs", import.meta.url));
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map(kill));
});

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Temp file names in `dir` whose writer is `pid`. */
async function tempFilesOf(dir: string, pid: number): Promise<string[]> {
  return (await readdir(dir)).filter((name) => parseTempFileName(name)?.owner.pid === pid);
}

async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (!ok(value)) throw new Error(`not yet: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: 30_000, interval: 10 },
  );
}

/** State letter of a process (field 3 of /proc/PID/stat): "T" once a SIGSTOP took hold. */
async function processState(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

/**
 * SIGSTOPs a writer at a moment one of its temp files exists, and returns those names. A stop
 * that lands between two writes (renamed, next temp file not made yet) finds none: the writer
 * is let go on and stopped again once its next temp file shows up.
 */
async function stopMidWrite(child: ChildProcess, dir: string): Promise<string[]> {
  const pid = child.pid as number;
  for (;;) {
    await until(
      () => tempFilesOf(dir, pid),
      (names) => names.length > 0,
    );
    child.kill("SIGSTOP");
    await until(
      () => processState(pid),
      (state) => state === "T",
    );
    const names = await tempFilesOf(dir, pid);
    if (names.length > 0) return names;
    child.kill("SIGCONT");
  }
}

/**
 * A child that rewrites `path` in a loop through the adapter, SIGKILLed the moment one of its
 * temp files exists: a writer killed mid-write. Resolves with the temp file it left (a kill that
 * lands just after a rename leaves none, so that case is tried again).
 */
async function killedMidWrite(dir: string, name: string): Promise<string> {
  for (;;) {
    const child = spawn(process.execPath, [WRITE_LOOP, join(dir, name)], { stdio: "ignore" });
    children.push(child);
    const pid = child.pid as number;
    await until(
      () => tempFilesOf(dir, pid),
      (names) => names.length > 0,
    );
    await kill(child);
    expect(isAlive(pid)).toBe(false);
    const left = await tempFilesOf(dir, pid);
    if (left.length === 1) return left[0] as string;
  }
}

describe("temp files of killed writers", () => {
  it("are swept by the next write to their directory, while a live writer's temp file stays", async () => {
    const dir = await tempDir();
    const live = spawn(process.execPath, [WRITE_LOOP, join(dir, "live.bin")], { stdio: "ignore" });
    children.push(live);
    const livePid = live.pid as number;
    await until(
      () => tempFilesOf(dir, livePid),
      (names) => names.length > 0,
    );
    const left = await killedMidWrite(dir, "dead.bin");
    // The leftover is there for anyone to see until a write comes by.
    expect(await readdir(dir)).toContain(left);
    // Stop the live writer in its tracks (SIGSTOP keeps it alive) so its temp file holds still.
    const liveTemp = await stopMidWrite(live, dir);
    await ops.writeFile(join(dir, "next.txt"), "next");
    const after = await readdir(dir);
    expect(after).not.toContain(left);
    expect(liveTemp).toHaveLength(1);
    expect(after).toContain(liveTemp[0]);
    await kill(live);
    // Dead now: the next write takes its temp file too.
    await ops.writeFile(join(dir, "next.txt"), "again");
    expect((await readdir(dir)).filter((name) => parseTempFileName(name))).toEqual([]);
  }, 60_000);

  it("a sweep leaves other files alone, also ones that merely look similar", async () => {
    const dir = await tempDir();
    const left = await killedMidWrite(dir, "x.bin");
    const lookalikes = [".x.bin.tackle-tmp", ".x.bin.swp", left.replace(/\.tmp$/, ".tmp.keep")];
    for (const name of lookalikes) await ops.writeFile(join(dir, name), "mine");
    await ops.writeFile(join(dir, "y.txt"), "y");
    // x.bin exists only if the killed writer finished a write before the one it died in.
    const names = (await readdir(dir)).filter((name) => name !== "x.bin");
    expect(names.sort()).toEqual([...lookalikes, "y.txt"].sort());
  }, 60_000);
});
