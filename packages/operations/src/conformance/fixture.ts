import type { Operations } from "../types.js";
import { joinPath, utf8 } from "./context.js";

/** Names used by the file checks (below `<root>/fixture`). */
export const FILES = {
  plain: "a.txt",
  plainText: "alpha\nbeta\ngamma\n",
  unicode: "ünïcødé 名前 file.txt",
  unicodeText: "unicode content ✓ — ok\n",
  spaceDir: "dir with space",
  leaf: ["dir with space", "nested", "deep", "leaf.txt"],
  leafText: "leaf\n",
  crlf: "crlf.txt",
  crlfText: "one\r\ntwo\r\n",
  bom: "bom.txt",
  bomText: "\uFEFFbom first line\nsecond\n",
  binary: "binary.bin",
  big: "big.bin",
  linkToFile: "link-to-file",
  linkToDir: "link-to-dir",
  dangling: "dangling",
  loopA: "loop-a",
  loopB: "loop-b",
  hidden: ".hidden",
  hiddenDir: ".hidden-dir",
} as const;

/** The binary fixture: every byte value four times, NUL included. */
export function binaryBytes(): Uint8Array {
  const bytes = new Uint8Array(1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
  return bytes;
}

/** Byte at `offset` of the big file: position-dependent, so a wrong offset shows. */
export function bigByte(offset: number): number {
  return (offset * 31 + Math.floor(offset / 65_536)) & 0xff;
}

/** `length` bytes of the big file starting at `start`. */
export function bigBytes(start: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = bigByte(start + i);
  return bytes;
}

/** Builds the file fixture through the adapter under test. */
export async function buildFileFixture(ops: Operations, root: string, bigFileBytes: number): Promise<string> {
  const dir = joinPath(ops.platform, root, "fixture");
  const at = (...parts: string[]) => joinPath(ops.platform, dir, ...parts);
  await ops.mkdir(dir);
  await ops.writeFile(at(FILES.plain), FILES.plainText);
  await ops.writeFile(at(FILES.unicode), FILES.unicodeText);
  await ops.mkdir(at(...FILES.leaf.slice(0, -1)), { recursive: true });
  await ops.writeFile(at(...FILES.leaf), FILES.leafText);
  await ops.writeFile(at(FILES.crlf), FILES.crlfText);
  await ops.writeFile(at(FILES.bom), utf8(FILES.bomText));
  await ops.writeFile(at(FILES.binary), binaryBytes());
  await ops.writeFile(at(FILES.big), bigBytes(0, bigFileBytes));
  await ops.symlink(FILES.plain, at(FILES.linkToFile));
  await ops.symlink(FILES.spaceDir, at(FILES.linkToDir));
  await ops.symlink("missing-target", at(FILES.dangling));
  await ops.symlink(FILES.loopB, at(FILES.loopA));
  await ops.symlink(FILES.loopA, at(FILES.loopB));
  await ops.writeFile(at(FILES.hidden), "hidden\n");
  await ops.mkdir(at(FILES.hiddenDir));
  await ops.writeFile(at(FILES.hiddenDir, "inside.txt"), "inside\n");
  return dir;
}

/**
 * The search fixture (below `<root>/search`), a repository with a nested repository. Each file
 * that contains NEEDLE says in its text why it should or should not be found.
 */
export const SEARCH_TREE: Record<string, string> = {
  ".git/config": "NEEDLE inside .git is never searched\n",
  ".gitignore": "ignored.txt\nbuild/\n*.log\n",
  "ignored.txt": "NEEDLE ignored by .gitignore\n",
  "build/out.txt": "NEEDLE in an ignored directory\n",
  "debug.log": "NEEDLE ignored by a glob rule\n",
  "src/main.ts": "const a = 1;\n// NEEDLE in main\nconst b = 2;\n",
  "src/util.ts": "export const x = 'needle in lower case';\n",
  "src/deep/more.ts": "NEEDLE deep\n",
  "docs/readme.md": "a.c literal\nabc regex\n",
  "flags.txt": "plain\n-e flag-like\n--help\n",
  "many.txt": "MANY\n".repeat(1000),
  ".hidden.txt": "NEEDLE hidden file\n",
  "nested/.git/HEAD": "NEEDLE inside a nested .git\n",
  "nested/.gitignore": "secret.txt\n",
  "nested/secret.txt": "NEEDLE ignored by the nested repo\n",
  "nested/kept.txt": "NEEDLE kept in the nested repo\n",
  "space dir/ünï.txt": "NEEDLE unicode path\n",
  "crlf.txt": "NEEDLE crlf\r\nnext\r\n",
  // Path order (`sortsByPath`): upper case first, a directory before a longer name it starts
  // (`a/` before `a-b/`, though "-" < "/"), and code points past ASCII last.
  "order/z.txt": "ORDER 5\n",
  "order/a-b/x.txt": "ORDER 4\n",
  "order/é.txt": "ORDER 6\n",
  "order/a/x.txt": "ORDER 2\nORDER 3\n",
  "order/B.txt": "ORDER 1\n",
};

/** The files of `order/` in path order (a sorted walk's order, ripgrep's `--sort path`). */
export const ORDERED_FILES = ["B.txt", "a/x.txt", "a-b/x.txt", "z.txt", "é.txt"];

/** Paths (relative, POSIX) that `grep NEEDLE` finds by default, with their line numbers. */
export const NEEDLE_MATCHES = [
  ".hidden.txt:1",
  "crlf.txt:1",
  "nested/kept.txt:1",
  "space dir/ünï.txt:1",
  "src/deep/more.ts:1",
  "src/main.ts:2",
];

/** Extra NEEDLE files found with `includeIgnored`. */
export const IGNORED_NEEDLE_FILES = ["build/out.txt", "debug.log", "ignored.txt", "nested/secret.txt"];

/** Builds the search fixture through the adapter under test. */
export async function buildSearchFixture(ops: Operations, root: string): Promise<string> {
  const dir = joinPath(ops.platform, root, "search");
  await ops.mkdir(dir);
  const made = new Set<string>();
  for (const [relative, content] of Object.entries(SEARCH_TREE)) {
    const parts = relative.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const sub = parts.slice(0, depth).join("/");
      if (made.has(sub)) continue;
      made.add(sub);
      await ops.mkdir(joinPath(ops.platform, dir, ...parts.slice(0, depth)));
    }
    await ops.writeFile(joinPath(ops.platform, dir, ...parts), content);
  }
  return dir;
}

/**
 * The link fixture (below `<root>/search-links`): one real file, and links that a search must
 * not follow: to that file, to its directory, a loop, and one out of the tree into the search
 * fixture (whose files hold NEEDLE). Only `real/needle.txt` may be found.
 */
export const LINKS_TREE = {
  real: "real/needle.txt",
  realText: "NEEDLE behind links\n",
  /** Link name -> target, as stored. */
  links: {
    "link-to-file": "real/needle.txt",
    "link-to-dir": "real",
    "loop-a": "loop-b",
    "loop-b": "loop-a",
    "link-out": "../search/src",
  },
} as const;

/** Builds the link fixture through the adapter under test (after the search fixture). */
export async function buildLinksFixture(ops: Operations, root: string): Promise<string> {
  const dir = joinPath(ops.platform, root, "search-links");
  await ops.mkdir(joinPath(ops.platform, dir, "real"), { recursive: true });
  await ops.writeFile(joinPath(ops.platform, dir, ...LINKS_TREE.real.split("/")), LINKS_TREE.realText);
  for (const [name, target] of Object.entries(LINKS_TREE.links)) {
    await ops.symlink(target, joinPath(ops.platform, dir, name));
  }
  return dir;
}
