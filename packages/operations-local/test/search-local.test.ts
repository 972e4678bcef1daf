import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { bundledRgPath, createLocalOperations } from "../src/index.js";
import { liveChildrenNamed, tempDir } from "./helpers.js";

const ops = createLocalOperations();
const search = ops.search!;

async function manyMatches(lines: number): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, "big.txt"), "hit\n".repeat(lines));
  return dir;
}

describe("local search on ripgrep", () => {
  it("uses the binary shipped by @vscode/ripgrep", async () => {
    expect(await bundledRgPath()).toMatch(/@vscode[/\\]ripgrep/);
  });

  it("stops rg as soon as maxMatches is reached: no rg child is left", async () => {
    const dir = await manyMatches(200_000);
    const events = [];
    for await (const event of search.grep({ pattern: "hit", path: dir, maxMatches: 1 })) events.push(event);
    expect(events).toEqual([{ type: "match", path: "big.txt", lineNumber: 1, line: "hit" }]);
    expect(liveChildrenNamed("rg")).toEqual([]);
  });

  it("stops rg when the consumer leaves the loop early", async () => {
    const dir = await manyMatches(200_000);
    for await (const _event of search.grep({ pattern: "hit", path: dir })) break;
    expect(liveChildrenNamed("rg")).toEqual([]);
  });

  it("stops rg for files at the limit", async () => {
    const dir = await tempDir();
    await Promise.all(Array.from({ length: 50 }, (_, i) => writeFile(join(dir, `f${i}.txt`), "")));
    const listed = [];
    for await (const path of search.files({ path: dir, limit: 2 })) listed.push(path);
    expect(listed.length).toBe(2);
    expect(liveChildrenNamed("rg")).toEqual([]);
  });

  it("an invalid regex is invalid_argument carrying rg's message", async () => {
    const dir = await manyMatches(1);
    let error: unknown;
    try {
      for await (const _ of search.grep({ pattern: "a(b", path: dir })) break;
    } catch (caught) {
      error = caught;
    }
    expect(isOperationError(error, "invalid_argument")).toBe(true);
    expect((error as Error).message).toMatch(/regex parse error/);
    expect((error as Error).message).toMatch(/unclosed group/);
  });

  it("an invalid glob is invalid_argument", async () => {
    const dir = await manyMatches(1);
    await expect(collect(search.files({ path: dir, glob: "a{b" }))).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });

  it("a missing rg binary is not_supported; a host-given rgPath is used", async () => {
    const dir = await manyMatches(1);
    const missing = createLocalOperations({ rgPath: join(dir, "no-rg") }).search!;
    await expect(collect(missing.files({ path: dir }))).rejects.toMatchObject({ code: "not_supported" });
    const given = createLocalOperations({ rgPath: await bundledRgPath() }).search!;
    expect(await collect(given.files({ path: dir }))).toEqual(["big.txt"]);
  });

  it("rgPath false offers no search", () => {
    expect(createLocalOperations({ rgPath: false }).search).toBeUndefined();
  });

  it("honours .gitignore outside any git work tree", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, ".gitignore"), "skip.txt\n");
    await writeFile(join(dir, "skip.txt"), "x");
    await writeFile(join(dir, "keep.txt"), "x");
    expect((await collect(search.files({ path: dir }))).sort()).toEqual([".gitignore", "keep.txt"]);
  });

  it("a file that is not UTF-8 yields lines decoded with replacement characters", async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, "latin1.txt"),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x68, 0x69, 0x74, 0x0a]),
    );
    expect(await collect(search.grep({ pattern: "hit", path: dir }))).toEqual([
      { type: "match", path: "latin1.txt", lineNumber: 1, line: "caf\uFFFD hit" },
    ]);
  });

  it("an unreadable directory as the root is permission_denied (when not root)", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "closed"));
    await writeFile(join(dir, "closed", "f.txt"), "hit\n");
    await chmod(join(dir, "closed"), 0);
    try {
      const outcome = await collect(search.grep({ pattern: "hit", path: join(dir, "closed") })).then(
        (events) => events.length,
        (error: { code?: string }) => error.code,
      );
      // root reads through mode 0 (CAP_DAC_OVERRIDE); permissions.test.ts covers this as nobody.
      expect(outcome).toBe(process.getuid?.() === 0 ? 1 : "permission_denied");
    } finally {
      await chmod(join(dir, "closed"), 0o755);
    }
  });
});

describe("ignore files in directories above the search root", () => {
  /** A search on an rg that logs its arguments (one line each) to `log`, then runs the real one. */
  async function loggingSearch(dir: string) {
    const log = join(dir, "rg-args.log");
    const script = join(dir, "rg-logging.sh");
    await writeFile(
      script,
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\nexec '${await bundledRgPath()}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
    return {
      search: createLocalOperations({ rgPath: script }).search!,
      args: async () => (await readFile(log, "utf8")).split("\n"),
    };
  }

  it("still apply: a parent's .gitignore and a parent repository's info/exclude hide files", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "repo", ".git", "info"), { recursive: true });
    await mkdir(join(dir, "repo", "sub"), { recursive: true });
    await writeFile(join(dir, ".gitignore"), "by-parent.txt\n");
    await writeFile(join(dir, "repo", ".git", "info", "exclude"), "by-exclude.txt\n");
    for (const name of ["kept.txt", "by-parent.txt", "by-exclude.txt"])
      await writeFile(join(dir, "repo", "sub", name), "hit\n");
    const { search: logged, args } = await loggingSearch(dir);
    expect(await collect(logged.files({ path: join(dir, "repo", "sub") }))).toEqual(["kept.txt"]);
    expect(await args()).not.toContain("--no-ignore-parent");
    expect(
      (await collect(logged.grep({ pattern: "hit", path: join(dir, "repo", "sub") }))).map((e) => e.path),
    ).toEqual(["kept.txt"]);
  });

  it("when no directory above holds one, rg is told not to look for them (same results)", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, "sub", ".gitignore"), "ignored.txt\n");
    for (const name of ["kept.txt", "ignored.txt"]) await writeFile(join(dir, "sub", name), "hit\n");
    const { search: logged, args } = await loggingSearch(dir);
    // files() streams in the walk's order (the tools sort); the set is what this test is about.
    expect((await collect(logged.files({ path: join(dir, "sub") }))).sort()).toEqual([
      ".gitignore",
      "kept.txt",
    ]);
    expect(await args()).toContain("--no-ignore-parent");
    expect(
      (await collect(logged.grep({ pattern: "hit", path: join(dir, "sub") }))).map((e) => e.path),
    ).toEqual(["kept.txt"]);
    expect(await args()).toContain("--no-ignore-parent");
  });
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
