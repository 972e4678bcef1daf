/** `watchTree` of the local adapter on real directories, changed by real processes. */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TreeWatch } from "@tackle/operations";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { MAX_WATCHED_CHANGES, MAX_WATCHED_DIRECTORIES } from "../src/tree-watch.js";

const local = createLocalOperations();
let dir: string;
let watch: TreeWatch | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-watch-")));
  await mkdir(join(dir, "a/deep"), { recursive: true });
  await writeFile(join(dir, "a/one.txt"), "one");
});
afterEach(async () => {
  watch?.close();
  watch = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function run(command: string): Promise<void> {
  const result = await local.exec(command, { shell: "bash", cwd: dir });
  if (result.exitCode !== 0) throw new Error(`${command}: exit ${result.exitCode}`);
}

async function changedPaths(): Promise<string[]> {
  const changes = await (watch as TreeWatch).changes();
  if (changes.lost) throw new Error("the watch lost track");
  return [...new Set(changes.paths)].sort();
}

describe("watchTree (local)", () => {
  it("reports what a process created, changed, removed and renamed, once, in the watched directories", async () => {
    watch = local.watchTree?.(dir, { directories: ["", "a", "a/deep"] });
    expect(await changedPaths()).toEqual([]);
    await run(
      "echo new > top.txt; echo more >> a/one.txt; touch a/deep/t; mv a/deep/t a/deep/u; rm a/one.txt",
    );
    expect(await changedPaths()).toEqual(["a/deep/t", "a/deep/u", "a/one.txt", "top.txt"]);
    expect(await changedPaths()).toEqual([]);
    // A directory not watched reports nothing itself; its creation shows in its parent.
    await run("mkdir -p a/fresh/inner && echo x > a/fresh/inner/f");
    expect(await changedPaths()).toEqual(["a/fresh"]);
    watch?.watch(["a/fresh", "a/fresh/inner"]);
    await run("echo y > a/fresh/inner/f");
    expect(await changedPaths()).toEqual(["a/fresh/inner/f"]);
  });

  it("loses track past the changes it keeps, when its root goes, and once closed", async () => {
    watch = local.watchTree?.(dir, { directories: [""] });
    await run(`for i in $(seq 1 ${MAX_WATCHED_CHANGES + 10}); do : > f$i; done`);
    expect(await watch?.changes()).toEqual({ lost: true });
    expect(await watch?.changes()).toEqual({ lost: true });
    watch?.close();

    watch = local.watchTree?.(dir, { directories: [""] });
    await rm(dir, { recursive: true });
    expect(await watch?.changes()).toEqual({ lost: true });
    await mkdir(dir);

    watch = local.watchTree?.(dir, { directories: [""] });
    watch?.close();
    await run("echo after > closed.txt");
    expect(await watch?.changes()).toEqual({ lost: true });
  });

  it("loses track rather than hold more directories than it may", async () => {
    const directories = Array.from({ length: MAX_WATCHED_DIRECTORIES + 1 }, (_, i) => `d${i}`);
    await run(`mkdir ${directories.join(" ")}`);
    watch = local.watchTree?.(dir, { directories });
    expect(await watch?.changes()).toEqual({ lost: true });
  });

  it("refuses a root that cannot be watched, with the operation's code", () => {
    expect(() => local.watchTree?.(join(dir, "missing"), { directories: [""] })).toThrow(
      expect.objectContaining({ code: "not_found" }),
    );
    expect(() => local.watchTree?.("relative/path", { directories: [""] })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });

  it("does not keep its process alive", () => {
    const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `const { createLocalOperations } = await import(${JSON.stringify(entry)});
      createLocalOperations().watchTree(${JSON.stringify(dir)}, { directories: ["", "a"] });
      console.log("watching");`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe("watching");
  });
});
