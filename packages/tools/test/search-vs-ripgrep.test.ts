/**
 * The portable search against raw ripgrep on the same real tree: the fallback must choose the
 * same files, in the same order, and find the same lines.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GrepEvent, GrepRequest } from "@tackle/operations";
import { compileGlob } from "@tackle/operations/ripgrep";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadIgnoreFrames } from "../src/search/ignore-frames.js";
import { isIgnored } from "../src/search/ignore-rules.js";
import { createPortableSearch } from "../src/search/portable-search.js";
import { makeTree, rawRg } from "./search-fixture.js";

const ops = createLocalOperations({ rgPath: false });
const portable = createPortableSearch(ops);
let tree: { root: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  tree = await makeTree();
});
afterAll(() => tree.cleanup());

async function portableFiles(path: string, glob?: string, search = portable): Promise<string[]> {
  const out: string[] = [];
  for await (const file of search.files({ path, ...(glob ? { glob } : {}) })) out.push(file);
  return out;
}

async function rgFiles(cwd: string, flags: string[] = [], options: { requireGit?: boolean } = {}) {
  return (await rawRg(cwd, ["--files", ...flags], [], options)).split("\n").filter(Boolean);
}

async function portableGrep(request: Omit<GrepRequest, "path">, path = tree.root): Promise<string[]> {
  const out: string[] = [];
  for await (const event of portable.grep({ ...request, path })) out.push(render(event));
  return out;
}

/** rg flags that select files by name the way a glob without `/` does, keeping ignore rules. */
function typeFlags(glob: string): string[] {
  return ["--type-add", `tglob:${glob}`, "--type", "tglob"];
}

function render(event: GrepEvent): string {
  return `${event.type} ${event.path}:${event.lineNumber}:${event.line.replace(/\r?\n?$/, "")}`;
}

/** rg --json events in the same rendering. */
async function rgGrep(flags: string[], pattern: string, cwd = tree.root, paths = ["."]): Promise<string[]> {
  const out: string[] = [];
  // A path argument keeps rg from searching its stdin; "." makes it print "./" prefixes.
  for (const line of (await rawRg(cwd, ["--json", ...flags], ["--", pattern, ...paths])).split("\n")) {
    if (line === "") continue;
    const message = JSON.parse(line) as { type: string; data: Record<string, any> };
    if (message.type !== "match" && message.type !== "context") continue;
    const text = message.data.lines.text ?? Buffer.from(message.data.lines.bytes, "base64").toString("utf8");
    const path = (message.data.path.text as string).replace(/^\.\//, "");
    out.push(`${message.type} ${path}:${message.data.line_number}:${text.replace(/\r?\n?$/, "")}`);
  }
  return out;
}

describe("portable search vs ripgrep", () => {
  it("lists the same files in the same order as rg --files --sort path", async () => {
    const expected = await rgFiles(tree.root);
    const actual = await portableFiles(tree.root);
    expect(actual).toEqual(expected);
    // The rules the tree exercises, spelled out so a regression names itself.
    expect(actual).toContain(".env");
    expect(actual).toContain(".hidden/secret.txt");
    expect(actual).toContain("keep.log");
    expect(actual).toContain("nested/lib.ts");
    expect(actual).toContain("ünïcode/файл.txt");
    expect(actual).not.toContain("app.log");
    expect(actual).not.toContain("build/out.js");
    expect(actual).not.toContain("dotignored.txt");
    expect(actual).not.toContain("src/generated.ts");
    expect(actual).not.toContain("nested/vendor/v.ts");
    expect(actual).not.toContain("link.txt");
    expect(actual.some((path) => path.startsWith(".git/") || path.includes("/.git/"))).toBe(false);
    expect(actual.indexOf("a/x.txt")).toBeLessThan(actual.indexOf("a-b/x.txt"));
  });

  it("applies an outer .gitignore inside a nested repository (rg --no-require-git)", async () => {
    expect(await portableFiles(tree.root)).not.toContain("nested/app.log");
  });

  it("with requireGit, scopes .gitignore to the nearest repository like plain rg", async () => {
    const scoped = createPortableSearch(ops, { requireGit: true });
    const expected = await rgFiles(tree.root, [], { requireGit: true });
    expect(await portableFiles(tree.root, undefined, scoped)).toEqual(expected);
    expect(expected).toContain("nested/app.log");
    expect(expected).not.toContain("nested/vendor/v.ts");
  });

  it("with requireGit, ignores .gitignore files outside a git repository like plain rg", async () => {
    const plain = await makeTree(
      { ".gitignore": "*.log\n", "a.log": "x\n", "b.txt": "x\n", ".ignore": "b.txt\n" },
      { git: false },
    );
    try {
      const scoped = createPortableSearch(ops, { requireGit: true });
      const expected = await rgFiles(plain.root, [], { requireGit: true });
      expect(await portableFiles(plain.root, undefined, scoped)).toEqual(expected);
      expect(expected).toEqual([".gitignore", ".ignore", "a.log"]);
      expect(await portableFiles(plain.root)).toEqual(await rgFiles(plain.root));
    } finally {
      await plain.cleanup();
    }
  });

  it("honours the ignore files above a subdirectory it searches", async () => {
    const expected = await rgFiles(join(tree.root, "src"));
    expect(await portableFiles(join(tree.root, "src"))).toEqual(expected);
    expect(expected).not.toContain("generated.ts");
  });

  it.each([["*.ts"], ["*.{md,txt}"], ["*"], ["*.log"], ["keep.*"]])(
    "selects files by the name glob %s like rg --type-add with that glob (ignore rules kept)",
    async (glob) => {
      const expected = await rgFiles(tree.root, typeFlags(glob));
      expect(await portableFiles(tree.root, glob)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    },
  );

  it.each([["!*.ts"], ["!a"], ["!src/deep"]])(
    "leaves out what the negated glob %s names like rg --glob",
    async (glob) => {
      const expected = await rgFiles(tree.root, ["--glob", glob]);
      expect(await portableFiles(tree.root, glob)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    },
  );

  it.each([["src/*.ts"], ["**/*.txt"], ["src/**"], ["/a/*.txt"], ["nested/*"]])(
    "selects files by the path glob %s as rg lists them, filtered by path",
    async (glob) => {
      const matches = compileGlob(glob);
      const expected = (await rgFiles(tree.root)).filter((path) => matches(path));
      expect(await portableFiles(tree.root, glob)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    },
  );

  it("never lets a glob take a file or a directory the ignore rules skip, nor .git", async () => {
    expect(await portableFiles(tree.root, "src/*.ts")).not.toContain("src/generated.ts");
    expect(await portableFiles(tree.root, "*.log")).toEqual(["keep.log"]);
    expect(await portableFiles(tree.root, "build/*")).toEqual([]);
    expect(await portableFiles(tree.root, "v.ts")).toEqual([]);
    expect(await portableFiles(tree.root, "HEAD")).toEqual([]);
    const all = await portableFiles(tree.root, "*");
    expect(all).toEqual(await portableFiles(tree.root));
    expect(all.some((path) => path.startsWith(".git/") || path.includes("/.git/"))).toBe(false);
  });

  it("lets includeIgnored add ignored files a glob names, still never .git", async () => {
    const files = async (glob: string) => {
      const out: string[] = [];
      for await (const file of portable.files({ path: tree.root, glob, includeIgnored: true }))
        out.push(file);
      return out;
    };
    expect(await files("*.log")).toEqual(["app.log", "keep.log", "nested/app.log"]);
    expect(await files("build/*")).toEqual(["build/out.js"]);
    expect(await files("HEAD")).toEqual([]);
  });

  it.each<[string, boolean]>([
    ["needle", false],
    ["TODO", true],
    ["^needle", false],
    ["x = \\d", false],
    ["needle (one|two)", false],
    ["crlf\\r$", false],
  ])("finds the same lines as rg for %s (ignoreCase %s)", async (pattern, ignoreCase) => {
    const expected = await rgGrep(ignoreCase ? ["--ignore-case"] : [], pattern);
    const actual = await portableGrep({ pattern, ignoreCase });
    expect(actual).toEqual(expected);
    expect(actual.length).toBeGreaterThan(0);
  });

  it("gives the same context lines as rg -C", async () => {
    const expected = await rgGrep(["-C", "1"], "needle");
    expect(await portableGrep({ pattern: "needle", context: 1 })).toEqual(expected);
  });

  it("greps only files the glob selects, with the ignore rules kept", async () => {
    const expected = await rgGrep(typeFlags("*.ts"), "needle");
    expect(await portableGrep({ pattern: "needle", glob: "*.ts" })).toEqual(expected);
    expect(expected.join("\n")).not.toContain("generated");
    expect(expected.join("\n")).not.toContain("vendored");
  });

  it("searches a literal pattern with regex characters like rg -F", async () => {
    const expected = await rgGrep(["-F"], "'./util'");
    expect(await portableGrep({ pattern: "'./util'", literal: true })).toEqual(expected);
    expect(expected).toHaveLength(1);
  });

  it("treats flag-like patterns as patterns", async () => {
    for (const pattern of ["-e", "--files"]) {
      const expected = await rgGrep([], pattern);
      expect(await portableGrep({ pattern })).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  it("stops at NUL bytes the way rg does, also after the first 64 KiB", async () => {
    const filler = "filler line\n".repeat(20_000);
    const dir = await makeTree({
      "late.bin": `needle start\n${filler}needle before nul\nzz\u0000\nneedle after\n`,
      "early.bin": `needle start\n${"filler line\n".repeat(100)}zz\u0000\n`,
      "text.txt": "needle text\n",
    });
    try {
      const expected = await rgGrep([], "needle", dir.root);
      expect(await portableGrep({ pattern: "needle" }, dir.root)).toEqual(expected);
      expect(expected).toContain("match late.bin:1:needle start");
    } finally {
      await dir.cleanup();
    }
  });

  it("keeps the first matches in path order when maxMatches stops the search", async () => {
    const all = await rgGrep([], "needle");
    const first = await portableGrep({ pattern: "needle", maxMatches: 3 });
    expect(first).toEqual(all.slice(0, 3));
  });

  it("rejects an invalid pattern with invalid_argument", async () => {
    await expect(portableGrep({ pattern: "(unclosed" })).rejects.toMatchObject({
      name: "OperationError",
      code: "invalid_argument",
    });
  });

  it("searches a single file given as path, even one that ignore rules exclude", async () => {
    const expected = await rgGrep([], "needle", tree.root, ["app.log"]);
    expect(await portableGrep({ pattern: "needle" }, join(tree.root, "app.log"))).toEqual(expected);
    expect(expected).toHaveLength(1);
  });

  it("stops promptly when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const iterate = async () => {
      for await (const _ of portable.grep(
        { pattern: "needle", path: tree.root },
        { signal: controller.signal },
      )) {
        // nothing: the first step must already reject
      }
    };
    await expect(iterate()).rejects.toMatchObject({ code: "aborted" });
  });

  it("stops with aborted when the signal fires during the walk", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const iterate = async () => {
      for await (const event of portable.grep(
        { pattern: "needle", path: tree.root },
        { signal: controller.signal },
      )) {
        seen.push(event.path);
        controller.abort();
      }
    };
    await expect(iterate()).rejects.toMatchObject({ code: "aborted" });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(5);
  });

  it("loadIgnoreFrames gives one directory the walk's verdicts", async () => {
    const dir = join(tree.root, "src");
    const entries = await ops.readdir(dir);
    const frames = await loadIgnoreFrames(ops, dir, entries, undefined);
    const kept = entries
      .filter((entry) => !isIgnored(frames, entry.name, entry.type === "directory"))
      .map((entry) => entry.name)
      .sort();
    expect(kept).toEqual([".gitignore", "deep", "main.ts", "util.ts"]);
  });

  it("picks up a .gitignore change on the next search", async () => {
    await writeFile(join(tree.root, "src", "deep", ".gitignore"), "more.ts\n");
    try {
      expect(await portableFiles(join(tree.root, "src"))).not.toContain("deep/more.ts");
    } finally {
      await writeFile(join(tree.root, "src", "deep", ".gitignore"), "");
    }
    expect(await portableFiles(join(tree.root, "src"))).toContain("deep/more.ts");
  });
});
