/**
 * Paged grep and find stop reading once the page is known when the native search sorts
 * (ripgrep's `--sort path`), and read everything when it does not: the same pages either way,
 * in path order, .gitignore honoured. A sorted scan that is slow to answer is overtaken by the
 * full one. The native search here is the real local ripgrep search, wrapped only to count what
 * the tools take from it (and, in one test, to hold the sorted scan back).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import type { Operations, SearchOperations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createTools } from "../src/factories.js";

const DIRS = 40;
const LINES = 10;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tackle-early-stop-"));
  await writeFile(join(root, ".gitignore"), "*.tmp\nbuild/\n");
  for (let d = 0; d < DIRS; d++) {
    // Names whose plain string order differs from path order: "d05-x" < "d05/" as strings.
    const dir = join(root, `d${String(d).padStart(2, "0")}`);
    await mkdir(join(dir, "build"), { recursive: true });
    const text = Array.from({ length: LINES }, (_, i) => `word ${d}.${i}`).join("\n");
    await writeFile(join(dir, "f.txt"), `${text}\n`);
    await writeFile(join(dir, "scratch.tmp"), "word ignored\n");
    await writeFile(join(dir, "build", "out.txt"), "word ignored\n");
    if (d % 10 === 5) {
      await mkdir(`${dir}-x`, { recursive: true });
      await writeFile(join(`${dir}-x`, "f.txt"), "word after the directory\n");
    }
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * The local operations with their real ripgrep search, counting what the tools take from sorted
 * and from full scans. `holdSorted`: a sorted scan yields nothing until a full scan started.
 */
function counted(sorts: boolean, holdSorted = false) {
  const ops = createLocalOperations();
  const native = ops.search as SearchOperations;
  const taken = { events: 0, paths: 0, fullEvents: 0, fullPaths: 0 };
  let fullStarted: () => void = () => {};
  const fullStart = new Promise<void>((resolve) => {
    fullStarted = resolve;
  });
  const search: SearchOperations = {
    ...(sorts ? { sortsByPath: true } : {}),
    async *grep(request, options) {
      if (!request.sortByPath) fullStarted();
      else if (holdSorted) await fullStart;
      for await (const event of native.grep(request, options)) {
        if (request.sortByPath) taken.events++;
        else taken.fullEvents++;
        yield event;
      }
    },
    async *files(request, options) {
      if (!request.sortByPath) fullStarted();
      else if (holdSorted) await fullStart;
      for await (const path of native.files(request, options)) {
        if (request.sortByPath) taken.paths++;
        else taken.fullPaths++;
        yield path;
      }
    },
  };
  const operations: Operations = { ...ops, search };
  const { grep, find } = createTools({
    context: createToolContext({ cwd: root, operations }),
    names: ["grep", "find"],
  });
  return { grep, find, taken };
}

const text = (outcome: { content: unknown[] }) => (outcome.content[0] as { text: string }).text;

describe("paged search on a sorting engine", () => {
  it("grep answers a page from the first files and shows the same page as a full read", async () => {
    const sorted = counted(true);
    const unsorted = counted(false);
    for (const args of [
      { pattern: "word", limit: 15 },
      { pattern: "word", limit: 15, offset: 50 },
      { pattern: "word", limit: 3, context: 2 },
    ]) {
      const early = await invokeTool(sorted.grep, args);
      const full = await invokeTool(unsorted.grep, args);
      expect(early.isError).toBe(false);
      expect(text(early)).toBe(text(full));
      expect(text(early)).not.toContain("ignored");
    }
    const first = text(await invokeTool(sorted.grep, { pattern: "word", limit: 15 }));
    expect(first).toContain("d00/f.txt:1: word 0.0");
    expect(first).toContain("d01/f.txt:5: word 1.4");
    expect(first).toContain("Use offset=15");
    // Sorted scans read whole files up to the page and one match more, not the tree.
    expect(sorted.taken.events).toBeGreaterThan(0);
    expect(sorted.taken.events).toBeLessThan(DIRS * LINES);
    expect(unsorted.taken.events).toBe(0);
    expect(unsorted.taken.fullEvents).toBeGreaterThanOrEqual(3 * DIRS * LINES);
  });

  it("pages walk the tree in path order: a directory before a longer name it starts", async () => {
    const { grep } = counted(true);
    const page = text(await invokeTool(grep, { pattern: "word", limit: 2, offset: 59 }));
    const paths = page.split("\n").filter((line) => /^d\d/.test(line));
    expect(paths.map((line) => line.slice(0, line.indexOf(":")))).toEqual(["d05/f.txt", "d05-x/f.txt"]);
  });

  it("find answers a page from the first paths, the same page as a full read", async () => {
    const sorted = counted(true);
    const unsorted = counted(false);
    for (const args of [
      { pattern: "**/*.txt", limit: 5 },
      { pattern: "*.txt", limit: 5, offset: 10 },
    ]) {
      const early = await invokeTool(sorted.find, args);
      expect(text(early)).toBe(text(await invokeTool(unsorted.find, args)));
      expect(text(early)).not.toContain("build/");
    }
    expect(sorted.taken.paths).toBeGreaterThan(0);
    expect(sorted.taken.paths).toBeLessThan(DIRS);
    expect(unsorted.taken.fullPaths).toBeGreaterThanOrEqual(2 * DIRS);
  });

  it("a sorted scan that has not answered is overtaken by the full scan: the same page", async () => {
    const held = counted(true, true);
    const unsorted = counted(false);
    const grepArgs = { pattern: "word", limit: 15, offset: 20 };
    const early = await invokeTool(held.grep, grepArgs);
    expect(text(early)).toBe(text(await invokeTool(unsorted.grep, grepArgs)));
    expect(held.taken.fullEvents).toBeGreaterThanOrEqual(DIRS * LINES);
    // A fresh wrapper: this one's full scan has started already.
    const heldFind = counted(true, true);
    const findArgs = { pattern: "*.txt", limit: 5 };
    const found = await invokeTool(heldFind.find, findArgs);
    expect(text(found)).toBe(text(await invokeTool(unsorted.find, findArgs)));
    expect(heldFind.taken.fullPaths).toBeGreaterThanOrEqual(DIRS);
  });
});
