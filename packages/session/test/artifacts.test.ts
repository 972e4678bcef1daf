import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createArtifactStore } from "../src/index.js";

let base: string;
const operations = createLocalOperations();

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "tackle-artifacts-test-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("artifact store", () => {
  it("keeps a private directory (0700) and private files (0600) with unguessable names", async () => {
    const store = createArtifactStore({ operations, sessionId: "s/1", baseDir: base });
    const dir = await store.directory();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(dir).toMatch(/tackle-artifacts-s_1-[0-9a-f]{32}$/);
    const a = await store.create({ prefix: "bash", extension: "log" });
    const b = await store.create({ prefix: "bash", extension: "log" });
    expect(a.path).not.toBe(b.path);
    expect(a.path).toMatch(/\/bash-[0-9a-f]{32}\.log$/);
    expect((await stat(a.path)).mode & 0o777).toBe(0o600);
    expect(await store.directory()).toBe(dir);
  });

  it("records size and sha256 given by the writer", async () => {
    const store = createArtifactStore({ operations, sessionId: "s", baseDir: base });
    const info = await store.create({ prefix: "out" });
    store.finalize(info.id, { size: 3, sha256: "abc" });
    expect(store.list()).toEqual([expect.objectContaining({ id: info.id, size: 3, sha256: "abc" })]);
  });

  it("removes everything on dispose", async () => {
    const store = createArtifactStore({ operations, sessionId: "s", baseDir: base });
    const info = await store.create({ prefix: "out" });
    await store.dispose();
    await expect(stat(info.path)).rejects.toThrow();
    expect(await readdir(base)).toEqual([]);
    await expect(store.create({ prefix: "x" })).rejects.toThrow();
  });

  it("removes artifacts and stale session directories after the retention time", async () => {
    let now = Date.now();
    const stale = createArtifactStore({ operations, sessionId: "old", baseDir: base });
    await stale.create({ prefix: "x" });
    const store = createArtifactStore({
      operations,
      sessionId: "s",
      baseDir: base,
      retentionMs: 1000,
      now: () => now,
    });
    const first = await store.create({ prefix: "first" });
    now += 5000;
    // The other session's directory is older than the retention only by our clock's jump: its
    // mtime is real time, so sweep it by making the clock run far ahead for a fresh store.
    const second = await store.create({ prefix: "second" });
    await expect(stat(first.path)).rejects.toThrow();
    expect((await stat(second.path)).isFile()).toBe(true);
    expect(store.list().map((a) => a.id)).toEqual([second.id]);
    const sweeper = createArtifactStore({
      operations,
      sessionId: "new",
      baseDir: base,
      retentionMs: 1000,
      now: () => Date.now() + 60_000,
    });
    const own = await sweeper.directory();
    const left = await readdir(base);
    expect(left).toContain(own.split("/").pop());
    expect(left.some((name) => name.includes("-old-"))).toBe(false);
  });
});
