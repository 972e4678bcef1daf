/** The shared listing script of SSH and Docker `listTree`, run here with GNU find and with busybox. */
import { spawn } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTreeListing, TREE_LISTING_SCRIPT, type TreeEntry, type TreeListingMode } from "../src/index.js";

const BUSYBOX_APPLETS = ["sh", "find", "stat", "tr", "wc", "head"];
let dir: string;
let tree: string;
let busyboxPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-tree-script-"));
  tree = join(dir, "tree");
  for (const sub of ["a/deep", "a-b", "[x]/in", ".git", "-dash", "with space"]) {
    await mkdir(join(tree, sub), { recursive: true });
  }
  const files: Record<string, string> = {
    "B.txt": "bee",
    "a/deep/f.bin": "0123456789".repeat(50),
    "a-b/x.txt": "x",
    "[x]/in/hidden": "not listed: [x] is skipped",
    ".git/HEAD": "ref",
    "-dash/-file": "-",
    "with space/new\nline": "nl",
    "é.txt": "é",
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(tree, path), text);
  await symlink("a", join(tree, "link"));
  await symlink("missing", join(tree, "dangling"));
  // busybox applets first on PATH: its find has no -printf, so the script takes the stat path.
  busyboxPath = join(dir, "busybox-bin");
  await mkdir(busyboxPath);
  for (const applet of BUSYBOX_APPLETS) await symlink("/bin/busybox", join(busyboxPath, applet));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the script through `sh` with PATH `path`, streaming stdout; resolves with the exit code. */
function runScript(path: string | undefined) {
  return (args: string[], signal: AbortSignal, onChunk: (bytes: Uint8Array) => void) =>
    new Promise<number>((resolve, reject) => {
      const env = path ? { ...process.env, PATH: `${path}:${process.env.PATH}` } : process.env;
      const child = spawn("sh", ["-c", TREE_LISTING_SCRIPT, "listtree", ...args], { env, signal });
      child.stdout.on("data", onChunk);
      child.on("error", reject);
      child.on("close", (code) => resolve(code ?? 1));
    });
}

const list = (path: string | undefined, root = tree, maxEntries = 1000, skip = [".git", "[x]"]) =>
  runTreeListing(
    root,
    { maxEntries, timeBudgetMs: 30_000, skipDirectories: skip },
    undefined,
    runScript(path),
  );

/** What node:fs sees: breadth first, names sorted per directory, skipped directories not entered. */
function walk(root: string, skip: string[]): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const queue = [""];
  for (let index = 0; index < queue.length; index++) {
    const relative = queue[index] as string;
    const names = readdirSync(join(root, relative)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const path = relative === "" ? name : `${relative}/${name}`;
      const stats = lstatSync(join(root, path));
      if (stats.isDirectory()) {
        entries.push({ path, type: "directory", size: 0, mtimeMs: 0 });
        if (!skip.includes(name)) queue.push(path);
      } else {
        const type = stats.isFile() ? "file" : stats.isSymbolicLink() ? "symlink" : "other";
        entries.push({ path, type, size: stats.size, mtimeMs: stats.mtimeMs });
      }
    }
  }
  return entries;
}

describe("TREE_LISTING_SCRIPT", () => {
  it.each([
    ["GNU find -printf", undefined, "gnu"],
    ["busybox find + stat", "busybox", "posix"],
  ] as const)("lists like node:fs with %s (links, odd names, exact skip names)", async (_, which, mode) => {
    const result = await list(which ? busyboxPath : undefined);
    expect(result.mode).toBe(mode as TreeListingMode);
    expect(result.listing.complete).toBe(true);
    expect(result.listing.entries).toEqual(walk(tree, [".git", "[x]"]));
    expect(result.listing.entries.map((entry) => entry.path)).toContain("with space/new\nline");
  });

  it.each([
    ["GNU", undefined],
    ["busybox", "busybox"],
  ])("cuts at maxEntries with the first entries breadth first (%s)", async (_, which) => {
    const all = walk(tree, []).map((entry) => entry.path);
    for (const cap of [1, 5, all.length - 1, all.length]) {
      const { listing } = await list(which ? busyboxPath : undefined, tree, cap, []);
      expect({ cap, complete: listing.complete }).toEqual({ cap, complete: cap === all.length });
      expect(listing.entries.map((entry) => entry.path)).toEqual(all.slice(0, cap));
    }
  });

  it("fails with not_found, not_directory and aborted", async () => {
    await expect(list(undefined, join(tree, "nope"))).rejects.toMatchObject({ code: "not_found" });
    await expect(list(undefined, join(tree, "B.txt"))).rejects.toMatchObject({ code: "not_directory" });
    const aborted = runTreeListing(
      tree,
      { maxEntries: 10, timeBudgetMs: 30_000, signal: AbortSignal.abort() },
      undefined,
      runScript(undefined),
    );
    await expect(aborted).rejects.toMatchObject({ code: "aborted" });
  });

  it("at the time budget keeps the depths read to their end and says the listing is incomplete", async () => {
    // A bound below the tree's size: the script lists depth by depth.
    // The script's output arrives, then the run hangs until it is stopped (a slow remote).
    const hanging = (args: string[], signal: AbortSignal, onChunk: (bytes: Uint8Array) => void) => {
      let seen = Buffer.alloc(0);
      let held = false;
      return runScript(undefined)(args, new AbortController().signal, (bytes) => {
        // Everything after the first depth's end is held back: the second depth is "still running".
        if (held) return;
        seen = Buffer.concat([seen, bytes]);
        const firstDepthEnd = seen.indexOf("\0\0");
        if (firstDepthEnd === -1) return;
        held = true;
        onChunk(seen.subarray(0, firstDepthEnd + 2));
      }).then(
        () =>
          new Promise<number>((_, reject) => {
            // The budget may have run out while the script ran (a slow or loaded machine).
            if (signal.aborted) return reject(new Error("stopped"));
            signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
          }),
      );
    };
    const { listing } = await runTreeListing(tree, { maxEntries: 12, timeBudgetMs: 200 }, "gnu", hanging);
    expect(listing.complete).toBe(false);
    expect(listing.entries.map((entry) => entry.path)).toEqual(
      walk(tree, [])
        .map((entry) => entry.path)
        .filter((path) => !path.includes("/")),
    );
  });
});
