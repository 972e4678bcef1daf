/** `listTree` of the local adapter, on a real directory tree. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";

const ops = createLocalOperations();
const listTree = (root: string, options: { maxEntries?: number; signal?: AbortSignal } = {}) =>
  ops.listTree!(root, { maxEntries: 1000, timeBudgetMs: 10_000, skipDirectories: [".git"], ...options });
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-list-tree-"));
  await mkdir(join(dir, "a/deep"), { recursive: true });
  await mkdir(join(dir, ".git"));
  await writeFile(join(dir, "a/deep/two.txt"), "22");
  await writeFile(join(dir, "one.txt"), "1");
  await writeFile(join(dir, ".git/HEAD"), "ref");
  await symlink("a", join(dir, "link"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("listTree (local)", () => {
  it("lists breadth first with own types, sizes of non-directories, links not followed, skipped directories not entered", async () => {
    const listing = await listTree(dir);
    expect(listing.complete).toBe(true);
    expect(listing.entries.map(({ path, type, size }) => ({ path, type, size }))).toEqual([
      { path: ".git", type: "directory", size: 0 },
      { path: "a", type: "directory", size: 0 },
      { path: "link", type: "symlink", size: 1 },
      { path: "one.txt", type: "file", size: 1 },
      { path: "a/deep", type: "directory", size: 0 },
      { path: "a/deep/two.txt", type: "file", size: 2 },
    ]);
    const file = listing.entries.find((entry) => entry.path === "one.txt");
    expect(file?.mtimeMs).toBe((await ops.lstat(join(dir, "one.txt"))).mtimeMs);
  });

  it("stops at maxEntries and says it is incomplete", async () => {
    const listing = await listTree(dir, { maxEntries: 2 });
    expect(listing).toEqual({ entries: expect.any(Array), complete: false });
    expect(listing.entries.map((entry) => entry.path)).toEqual([".git", "a"]);
  });

  it("rejects for a root that is missing or not a directory, and when aborted", async () => {
    await expect(listTree(join(dir, "nope"))).rejects.toMatchObject({ code: "not_found" });
    await expect(listTree(join(dir, "one.txt"))).rejects.toMatchObject({ code: "not_directory" });
    await expect(listTree(dir, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "aborted" });
  });
});
