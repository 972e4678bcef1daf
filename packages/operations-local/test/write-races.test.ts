import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, renameSync, symlinkSync, watch } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { isAlive, tempDir } from "./helpers.js";

const ops = createLocalOperations();
const SWAPPER = fileURLToPath(new URL("./fixtures/swap-dir.mjs", import.meta.url));

/** Every path below `dir` (files, links and directories), relative, sorted. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

/** Starts the swapper on `dir` and resolves once it has swapped at least once. */
async function startSwapper(dir: string, target: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SWAPPER, dir, target], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`swapper exited early (${code})`)));
    child.stdout?.once("data", () => resolve());
  });
  return child;
}

/** Stops the swapper by pid and puts `dir` back as a directory, wherever the swap left it. */
async function stopSwapper(child: ChildProcess, dir: string): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  expect(isAlive(child.pid as number)).toBe(false);
  const away = `${dir}.away`;
  if (existsSync(away)) {
    // Killed mid-swap: the link (or nothing) is at `dir`, the directory is away.
    await rm(dir, { force: true });
    renameSync(away, dir);
  }
}

/**
 * Runs `write` and, the moment its temp file appears in `dir` (an inotify event, delivered while
 * the write of a large buffer is still going on), calls `swap`. Resolves with the write's outcome
 * and whether the temp file still existed after the swap (so the swap really came mid-write).
 */
async function swapDuringWrite(
  dir: string,
  write: () => Promise<void>,
  swap: () => string,
): Promise<{ error: unknown; swappedMidWrite: boolean }> {
  let swappedMidWrite = false;
  const watcher = watch(dir, (_event, name) => {
    if (swappedMidWrite || !name?.includes("tackle")) return;
    const movedTo = swap();
    swappedMidWrite = existsSync(join(movedTo, name));
  });
  try {
    await write();
    return { error: undefined, swappedMidWrite };
  } catch (error) {
    return { error, swappedMidWrite };
  } finally {
    watcher.close();
  }
}

describe("writeFile when the directory changes under it", () => {
  it("the directory is replaced by a link to elsewhere after the temp file was made: the write lands in the directory it started in, never not_found, no temp file left", async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const sub = join(root, "sub");
    await mkdir(sub);
    const { error, swappedMidWrite } = await swapDuringWrite(
      sub,
      () => ops.writeFile(join(sub, "big.bin"), new Uint8Array(64 * 1024 * 1024).fill(1)),
      () => {
        renameSync(sub, `${sub}.away`);
        symlinkSync(outside, sub);
        return `${sub}.away`;
      },
    );
    expect(swappedMidWrite).toBe(true);
    expect(error).toBeUndefined();
    expect(await listTree(`${sub}.away`)).toEqual(["big.bin"]);
    expect(await listTree(outside)).toEqual([]);
  });

  it("with `within`: the directory moved out of the root after the temp file was made is outside_root, and nothing is left outside", async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const sub = join(root, "sub");
    await mkdir(sub);
    const { error, swappedMidWrite } = await swapDuringWrite(
      sub,
      () => ops.writeFile(join(sub, "big.bin"), new Uint8Array(64 * 1024 * 1024).fill(1), { within: root }),
      () => {
        renameSync(sub, join(outside, "sub"));
        return join(outside, "sub");
      },
    );
    expect(swappedMidWrite).toBe(true);
    expect(isOperationError(error, "outside_root"), String(error)).toBe(true);
    expect(await listTree(outside)).toEqual(["sub"]);
    expect(await listTree(root)).toEqual([]);
  });

  it("with `within`: 100 writes racing a swapper that replaces the directory by a link to outside land nothing outside", async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const sub = join(root, "sub");
    await mkdir(sub);
    const swapper = await startSwapper(sub, outside);
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        try {
          await ops.writeFile(join(sub, `f${i}.txt`), `content ${i}\n`, { within: root });
          outcomes.push("written");
        } catch (error) {
          outcomes.push(isOperationError(error) ? error.code : String(error));
        }
      }
    } finally {
      await stopSwapper(swapper, sub);
    }
    expect(await listTree(outside)).toEqual([]);
    // The path was missing (mid-swap) or led outside: typed refusals, nothing else.
    expect(outcomes.filter((outcome) => !["written", "outside_root", "not_found"].includes(outcome))).toEqual(
      [],
    );
    // What was written is whole and where it belongs; no temp file is left in the workspace.
    const written = outcomes.flatMap((outcome, i) => (outcome === "written" ? [`sub/f${i}.txt`] : []));
    expect((await listTree(root)).filter((path) => path !== "sub")).toEqual(written.sort());
  }, 60_000);
});
