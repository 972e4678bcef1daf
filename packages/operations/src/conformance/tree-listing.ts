import { beforeAll, describe, expect } from "vitest";
import type { ListTreeOptions, Operations, TreeEntry, TreeListing } from "../types.js";
import { type ConformanceOptions, expectCode, type SuiteContext, scaledIt, utf8 } from "./context.js";

/** The tree `listTree` is checked on: names that sort differently by bytes and by locale, links, skipped directories. */
const TREE_FILES: Record<string, string> = {
  "B.txt": "bee",
  ".hidden": "h",
  "a/x.txt": "ax",
  "a-b/x.txt": "a-b x",
  "a/deep/er/f.bin": "0123456789".repeat(100),
  "with space/z": "",
  "é.txt": "accent",
  ".git/HEAD": "ref: refs/heads/main\n",
  "node_modules/p/index.js": "module.exports = 1;\n",
};
const TREE_LINKS: Record<string, string> = { link: "a", dangling: "missing-target" };
const SKIPPED = [".git", "node_modules"];

/**
 * Checks of `ops.listTree` when the adapter offers it: the listing must be what a walk with
 * `readdir` + `lstat` sees (breadth first, names sorted per directory, own types, sizes and mtimes
 * of non-directories, skipped directories listed but not entered), cut at `maxEntries` the same
 * way, and fail like the other calls for a bad root.
 */
export function describeTreeListingChecks(
  get: () => SuiteContext,
  options: Required<ConformanceOptions>,
): void {
  const check = scaledIt(options);
  const dir = (...parts: string[]) => get().path("tree-listing", ...parts);
  const listTree = (root: string, extra: Partial<ListTreeOptions> = {}): Promise<TreeListing> => {
    const { ops } = get();
    if (!ops.listTree)
      throw new Error("the adapter offers no listTree: declare listTree: false in the conformance options");
    return ops.listTree(root, { maxEntries: 1000, timeBudgetMs: 60_000, skipDirectories: SKIPPED, ...extra });
  };

  describe("listTree agrees with readdir + lstat (types, sizes, skip, cap)", () => {
    beforeAll(async () => {
      const { ops } = get();
      await ops.mkdir(dir(), { recursive: true });
      for (const [path, content] of Object.entries(TREE_FILES)) {
        const parts = path.split("/");
        if (parts.length > 1) await ops.mkdir(dir(...parts.slice(0, -1)), { recursive: true });
        await ops.writeFile(dir(...parts), utf8(content));
      }
      for (const [name, target] of Object.entries(TREE_LINKS)) await ops.symlink(target, dir(name));
    }, 120_000 * options.slowFactor);

    check("lists what a readdir + lstat walk sees, in its order", async () => {
      const expected = await walk(get().ops, dir(), SKIPPED);
      const listing = await listTree(dir());
      expect(listing.complete).toBe(true);
      expect(listing.entries.map(shape)).toEqual(expected.map(shape));
      for (const [index, entry] of listing.entries.entries()) {
        const seen = expected[index] as TreeEntry;
        // The same instant; an adapter whose lstat has whole seconds only (SFTP) agrees to the second.
        expect(Math.floor(entry.mtimeMs / 1000), entry.path).toBe(Math.floor(seen.mtimeMs / 1000));
      }
      expect(listing.entries.map((entry) => entry.path)).toContain("a/deep/er/f.bin");
    });

    check("lists skipped directories but does not enter them; enters them when not skipped", async () => {
      const paths = (await listTree(dir())).entries.map((entry) => entry.path);
      expect(paths).toEqual(expect.arrayContaining([".git", "node_modules"]));
      expect(paths.filter((path) => path.startsWith(".git/") || path.startsWith("node_modules/"))).toEqual(
        [],
      );
      const all = (await listTree(dir(), { skipDirectories: [] })).entries.map((entry) => entry.path);
      expect(all).toEqual(expect.arrayContaining([".git/HEAD", "node_modules/p/index.js"]));
      expect(all).toEqual((await walk(get().ops, dir(), [])).map((entry) => entry.path));
    });

    check("stops at maxEntries with the first entries of the walk, and says so", async () => {
      const expected = (await walk(get().ops, dir(), SKIPPED)).map((entry) => entry.path);
      for (const cap of [1, 4, 11, expected.length - 1]) {
        const listing = await listTree(dir(), { maxEntries: cap });
        expect({ cap, complete: listing.complete }).toEqual({ cap, complete: false });
        expect(listing.entries.map((entry) => entry.path)).toEqual(expected.slice(0, cap));
      }
      const exact = await listTree(dir(), { maxEntries: expected.length });
      expect(exact.complete).toBe(true);
      expect(exact.entries.map((entry) => entry.path)).toEqual(expected);
    });

    check("rejects a missing root, a file root and an aborted call with their codes", async () => {
      await expectCode(listTree(dir("nope")), "not_found");
      await expectCode(listTree(dir("B.txt")), "not_directory");
      await expectCode(listTree(dir(), { signal: AbortSignal.abort() }), "aborted");
    });
  });
}

const shape = ({ path, type, size }: TreeEntry) => ({ path, type, size });

/** The listing a walk with `readdir` + `lstat` makes: breadth first, names sorted per directory. */
async function walk(ops: Operations, root: string, skip: readonly string[]): Promise<TreeEntry[]> {
  const separator = ops.platform === "win32" ? "\\" : "/";
  const entries: TreeEntry[] = [];
  const queue = [""];
  for (let index = 0; index < queue.length; index++) {
    const relative = queue[index] as string;
    const full = relative === "" ? root : `${root}${separator}${relative.replaceAll("/", separator)}`;
    const names = (await ops.readdir(full)).map((entry) => entry.name);
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const path = relative === "" ? name : `${relative}/${name}`;
      const stats = await ops.lstat(`${full}${separator}${name}`);
      if (stats.type === "directory") {
        entries.push({ path, type: "directory", size: 0, mtimeMs: 0 });
        if (!skip.includes(name)) queue.push(path);
      } else entries.push({ path, type: stats.type, size: stats.size, mtimeMs: stats.mtimeMs });
    }
  }
  return entries;
}
