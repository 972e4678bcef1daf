/** The shell's bounded workspace comparison, on a real directory through the local adapter. */
import { getEventListeners } from "node:events";
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

  it("keeps the caller's signal to one listener however many calls are in flight, and aborts them with it", async () => {
    for (let i = 0; i < 60; i++) await writeFile(join(dir, `many-${i}.txt`), "x");
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    /** Like a remote adapter: each call listens on the signal it is given while it runs. */
    const listening = (caller: AbortController, abortAtCall?: number) => {
      const seen = { mostOnCaller: 0, calls: 0, signals: new Set<AbortSignal>() };
      const listen = <T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> => {
        const onAbort = () => {};
        signal?.addEventListener("abort", onAbort, { once: true });
        if (signal) seen.signals.add(signal);
        seen.mostOnCaller = Math.max(seen.mostOnCaller, getEventListeners(caller.signal, "abort").length);
        if (++seen.calls === abortAtCall) caller.abort();
        return call().finally(() => signal?.removeEventListener("abort", onAbort));
      };
      const ops: Pick<Operations, "readdir" | "lstat" | "platform"> = {
        platform: local.platform,
        readdir: (path, options) => listen(options?.signal, () => local.readdir(path, options)),
        lstat: (path, options) => listen(options?.signal, () => local.lstat(path, options)),
      };
      return { ops, seen };
    };
    try {
      const caller = new AbortController();
      const whole = listening(caller);
      const snapshot = await snapshotWorkspace(whole.ops, dir, { signal: caller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      expect(snapshot.complete).toBe(true);
      expect(snapshot.entries.has("many-59.txt")).toBe(true);
      expect(whole.seen.calls).toBeGreaterThan(60);
      expect(whole.seen.mostOnCaller).toBe(1);
      expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
      expect(warnings).not.toContain("MaxListenersExceededWarning");

      const aborting = new AbortController();
      const cut = listening(aborting, 20);
      const partial = await snapshotWorkspace(cut.ops, dir, { signal: aborting.signal });
      expect(partial.complete).toBe(false);
      expect(cut.seen.calls).toBeLessThan(whole.seen.calls);
      expect([...cut.seen.signals].every((signal) => signal.aborted)).toBe(true);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
