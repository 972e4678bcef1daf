/** The shell's bounded workspace comparison, on a real directory through the local adapter. */
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareSnapshots, snapshotWorkspace } from "../src/audit/workspace-snapshot.js";

const local = createLocalOperations();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-snapshot-"));
  for (const sub of ["a", "a/deep", "b", ".git", "node_modules"])
    await mkdir(join(dir, sub), { recursive: true });
  for (const file of [
    "top.txt",
    "a/one.txt",
    "a/deep/two.txt",
    "b/three.txt",
    ".git/HEAD",
    "node_modules/x.js",
  ])
    await writeFile(join(dir, file), file);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The local adapter, counting the calls the walk makes by kind. */
function counting(): {
  ops: Pick<Operations, "readdir" | "lstat" | "platform">;
  lstats: string[];
  readdirs: number;
} {
  const seen = { lstats: [] as string[], readdirs: 0 };
  return {
    get lstats() {
      return seen.lstats;
    },
    get readdirs() {
      return seen.readdirs;
    },
    ops: {
      platform: local.platform,
      readdir: (path, options) => {
        seen.readdirs++;
        return local.readdir(path, options);
      },
      lstat: (path, options) => {
        seen.lstats.push(path);
        return local.lstat(path, options);
      },
    },
  };
}

describe("snapshotWorkspace", () => {
  it("lists every directory level, skips .git and node_modules, and lstats files only", async () => {
    const counted = counting();
    const snapshot = await snapshotWorkspace(counted.ops, dir);
    expect(snapshot.complete).toBe(true);
    expect([...snapshot.entries.keys()].sort()).toEqual([
      ".git",
      "a",
      "a/deep",
      "a/deep/two.txt",
      "a/one.txt",
      "b",
      "b/three.txt",
      "node_modules",
      "top.txt",
    ]);
    expect(snapshot.entries.get("a/one.txt")).toMatchObject({ type: "file", size: "a/one.txt".length });
    // root, a, a/deep, b: the skipped directories are named but not listed.
    expect(counted.readdirs).toBe(4);
    expect(counted.lstats.map((path) => path.slice(dir.length + 1)).sort()).toEqual([
      "a/deep/two.txt",
      "a/one.txt",
      "b/three.txt",
      "top.txt",
    ]);
  });

  it("sees the same entries through the environment's listTree as through the walk", async () => {
    expect(local.listTree).toBeDefined();
    const native = await snapshotWorkspace(local, dir);
    const walked = await snapshotWorkspace(counting().ops, dir);
    expect(native.complete).toBe(true);
    expect([...native.entries].sort()).toEqual([...walked.entries].sort());
  });

  it("finds created, changed and removed files between two snapshots", async () => {
    const before = await snapshotWorkspace(local, dir);
    await writeFile(join(dir, "a/deep/two.txt"), "longer than before");
    await writeFile(join(dir, "b/new.txt"), "new");
    await unlink(join(dir, "top.txt"));
    const after = await snapshotWorkspace(local, dir);
    expect(compareSnapshots(before, after)).toEqual([
      { path: "a/deep/two.txt", change: "changed", bytesBefore: 14, bytesAfter: 18 },
      { path: "b/new.txt", change: "created", bytesAfter: 3 },
      { path: "top.txt", change: "removed", bytesBefore: 7 },
    ]);
  });

  it("stops at the entry cap, says it is incomplete, and then calls nothing created or removed", async () => {
    const before = await snapshotWorkspace(local, dir, { maxEntries: 3 });
    expect(before.complete).toBe(false);
    expect(before.entries.size).toBeLessThanOrEqual(3);
    await writeFile(join(dir, "b/new.txt"), "new");
    const after = await snapshotWorkspace(local, dir, { maxEntries: 3 });
    expect(compareSnapshots(before, after).filter((change) => change.change !== "changed")).toEqual([]);
  });
});
