/**
 * The audit's tracked snapshots (a watch on the working directory brings the last snapshot up to
 * date) against a fresh listing of the same tree: after every step of random changes made by a
 * real shell command, the two must be the same entries.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { SessionState, wrapToolDefinition } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeTrackedTree, trackedSnapshot } from "../src/audit/tracked-tree.js";
import { snapshotWorkspace, type WorkspaceSnapshot } from "../src/audit/workspace-snapshot.js";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createToolDefinition } from "../src/factories.js";
import { prng } from "./support/prng.js";

const local = createLocalOperations();
const LIMITS = { maxEntries: 2000, timeBudgetMs: 5000 };
let dir: string;
let state: SessionState;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-tracked-")));
  state = new SessionState();
  for (const sub of ["a", "a/deep", "b", "node_modules/pkg"])
    await mkdir(join(dir, sub), { recursive: true });
  for (const file of ["top.txt", "a/one.txt", "a/deep/two.txt", "b/three.txt", "node_modules/pkg/x.js"])
    await writeFile(join(dir, file), file);
});
afterEach(async () => {
  closeTrackedTree(state);
  await rm(dir, { recursive: true, force: true });
});

function sorted(snapshot: WorkspaceSnapshot): [string, unknown][] {
  return [...snapshot.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function run(command: string): Promise<void> {
  const result = await local.exec(command, { shell: "bash", cwd: dir });
  if (result.exitCode !== 0) throw new Error(`${command}: exit ${result.exitCode}`);
}

/** One shell step touching files and directories of the tree, chosen by `next`. */
function step(next: () => number, n: number): string {
  const dirs = ["a", "a/deep", "b", "c", "c/d", "node_modules", "node_modules/pkg"];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const d = pick(dirs);
  const f = `f${Math.floor(next() * 4)}.txt`;
  switch (Math.floor(next() * 12)) {
    case 0:
      return `mkdir -p ${d} && printf 'x%.0s' $(seq ${1 + n}) > ${d}/${f}`;
    case 1:
      // Same size, same second: only the watch (or a hash) can tell.
      return `mkdir -p ${d} && printf abc > ${d}/${f} && printf xyz > ${d}/${f}`;
    case 2:
      return `rm -f ${d}/${f}`;
    case 3:
      return `rm -rf ${d}`;
    case 4:
      return `mkdir -p ${d}/new${n}/inner && echo hi > ${d}/new${n}/inner/g.txt`;
    case 5:
      return `[ -d ${d} ] && mv ${d} moved${n} || true`;
    case 6:
      return `[ -d moved${n - 1} ] && mv moved${n - 1} ${pick(["a", "b", "c"])}/back${n} || mkdir -p e${n}`;
    case 7:
      return `mkdir -p ${d} && ln -sfn ../top.txt ${d}/link${n}`;
    case 8:
      return `mkdir -p ${d} && touch -d '2001-01-01' ${d}/${f}`;
    case 9:
      return `mkdir -p ${d} && echo more >> ${d}/${f}`;
    case 10:
      return `rm -rf ${d} && mkdir -p ${d} && echo again > ${d}/${f}`;
    default:
      return `mkdir -p ${d}/.git && echo ref > ${d}/.git/HEAD`;
  }
}

describe("trackedSnapshot", () => {
  it("gives what a new listing gives, after every step of random shell changes", async () => {
    let updated = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const next = prng(seed);
      let previous = await trackedSnapshot(local, state, dir, LIMITS);
      for (let n = 1; n <= 10; n++) {
        const command = step(next, n);
        await run(command);
        const tracked = await trackedSnapshot(local, state, dir, LIMITS);
        const fresh = await snapshotWorkspace(local, dir, LIMITS);
        expect(sorted(tracked), `seed ${seed}, step ${n}: ${command}`).toEqual(sorted(fresh));
        if (tracked !== previous) updated++;
        previous = tracked;
      }
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      closeTrackedTree(state);
    }
    // The steps did change the tree (a run of no-ops would prove nothing).
    expect(updated).toBeGreaterThan(60);
  });

  it("hands out the same snapshot while nothing changes, and never changes one handed out", async () => {
    const first = await trackedSnapshot(local, state, dir, LIMITS);
    const again = await trackedSnapshot(local, state, dir, LIMITS);
    expect(again).toBe(first);
    const before = sorted(first);
    await run("echo new > a/new.txt");
    const after = await trackedSnapshot(local, state, dir, LIMITS);
    expect(after).not.toBe(first);
    expect(sorted(first)).toEqual(before);
    expect(after.entries.get("a/new.txt")).toMatchObject({ type: "file", size: 4 });
  });

  it("looks again only at the changed paths", async () => {
    const lstats: string[] = [];
    const counted: Operations = Object.create(local);
    counted.lstat = (path, options) => {
      lstats.push(path);
      return local.lstat(path, options);
    };
    await trackedSnapshot(counted, state, dir, LIMITS);
    await run("echo changed > b/three.txt");
    const snapshot = await trackedSnapshot(counted, state, dir, LIMITS);
    expect(lstats).toEqual([join(dir, "b/three.txt")]);
    expect(snapshot.entries.get("b/three.txt")?.size).toBe(8);
  });

  it("lists again when the watch lost track or the root changed", async () => {
    await trackedSnapshot(local, state, dir, LIMITS);
    // More changes than a watch keeps between two looks.
    await run("mkdir many && cd many && for i in $(seq 1 4200); do : > f$i; done");
    const snapshot = await trackedSnapshot(local, state, dir, LIMITS);
    expect(sorted(snapshot)).toEqual(sorted(await snapshotWorkspace(local, dir, LIMITS)));
    const other = await realpath(await mkdtemp(join(tmpdir(), "tackle-tracked-other-")));
    try {
      await writeFile(join(other, "o.txt"), "o");
      const elsewhere = await trackedSnapshot(local, state, other, LIMITS);
      expect([...elsewhere.entries.keys()]).toEqual(["o.txt"]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("keeps no watch for a listing cut by its bound, nor without a session", async () => {
    const cut = await trackedSnapshot(local, state, dir, { maxEntries: 3, timeBudgetMs: 5000 });
    expect(cut.complete).toBe(false);
    await run("echo x > top.txt");
    const full = await trackedSnapshot(local, state, dir, LIMITS);
    expect(sorted(full)).toEqual(sorted(await snapshotWorkspace(local, dir, LIMITS)));
    const once = await trackedSnapshot(local, undefined, dir, LIMITS);
    expect(sorted(once)).toEqual(sorted(full));
  });

  it("is what an audited shell call compares, and ends with the tool context", async () => {
    const closed: number[] = [];
    const watched: Operations = Object.create(local);
    let made = 0;
    watched.watchTree = (root, options) => {
      const watch = (local.watchTree as NonNullable<Operations["watchTree"]>)(root, options);
      const id = ++made;
      return { ...watch, changes: () => watch.changes(), close: () => (closed.push(id), watch.close()) };
    };
    const events: { kind: string; method?: string; files?: { path: string; change: string }[] }[] = [];
    const context = createToolContext({
      cwd: dir,
      operations: watched,
      audit: { append: (e) => events.push(e) },
    });
    const bash = wrapToolDefinition(createToolDefinition("bash"), () => context);
    const audit = { sink: context.audit as NonNullable<typeof context.audit> };
    for (const command of [
      "echo one > a/new.txt",
      "rm b/three.txt && mkdir -p c/d && echo two > c/d/e.txt",
    ]) {
      const outcome = await invokeTool(bash, { command }, { audit });
      expect(outcome.isError).toBe(false);
    }
    const effects = events.filter((e) => e.kind === "side-effect" && e.method === "snapshot");
    expect(effects.map((e) => e.files?.map((f) => `${f.change} ${f.path}`))).toEqual([
      ["created a/new.txt"],
      ["removed b/three.txt", "created c/d/e.txt"],
    ]);
    // One watch for the session, made by the first call's listing and kept by the second.
    expect(made).toBe(1);
    expect(closed).toEqual([]);
    await context.dispose();
    expect(closed).toEqual([1]);
  });
});

describe("hashSnapshot on a tracked snapshot", () => {
  it("hashes an unchanged snapshot once, and looks again when a file is recent or the tree changed", async () => {
    const { hashSnapshot } = await import("../src/audit/content-hashes.js");
    const reads: string[] = [];
    const counted: Operations = Object.create(local);
    counted.readFile = (path, options) => {
      reads.push(path);
      return local.readFile(path, options);
    };
    const old = Math.floor(Date.now() / 1000 - 3600);
    await run(`touch -d @${old} top.txt a/one.txt a/deep/two.txt b/three.txt`);
    const snapshot = await trackedSnapshot(counted, state, dir, LIMITS);
    const first = await hashSnapshot(counted, snapshot, { readSince: Date.now() - 2000 });
    expect(first.read).toBe(4);
    expect(reads).toHaveLength(4);
    const again = await trackedSnapshot(counted, state, dir, LIMITS);
    expect(again).toBe(snapshot);
    const second = await hashSnapshot(counted, again, { readSince: Date.now() - 2000 });
    expect(second).toMatchObject({ read: 0, missed: 0 });
    // Not looked up again: the very same hashes.
    expect(second.hashes).toBe(first.hashes);
    expect(reads).toHaveLength(4);
    // A window that reaches the files' mtime: they are read again.
    await hashSnapshot(counted, again, { readSince: old * 1000 - 1 });
    expect(reads).toHaveLength(8);
    // A changed file: a new snapshot, its file read; the others from the cache.
    await run("echo new > b/three.txt");
    const changed = await trackedSnapshot(counted, state, dir, LIMITS);
    const third = await hashSnapshot(counted, changed, { readSince: Date.now() - 2000 });
    expect(third.read).toBe(1);
    expect(third.hashes.get("b/three.txt")).not.toBe(first.hashes.get("b/three.txt"));
  });
});
