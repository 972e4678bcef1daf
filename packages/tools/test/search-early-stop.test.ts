/**
 * Paged grep and find stop reading once the page is known when the native search sorts
 * (ripgrep's `--sort path`), and read everything when it does not: the same pages either way,
 * in path order, .gitignore honoured. Only one scan runs at a time: a sorted scan that stalls is
 * stopped before the full one starts. The native search here is the real local ripgrep search,
 * wrapped only to count what the tools take from it and how many scans run (and, in some tests,
 * to hold the first sorted scan back).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { OperationError, type Operations, type SearchOperations } from "@tackle/operations";
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
 * and from full scans, how many scans of each kind started and the most that ran at once.
 * `holdFirstSorted`: the first sorted scan yields nothing until it is stopped (a start stalled by
 * a loaded machine); later ones run as they are.
 */
function counted(sorts: boolean, holdFirstSorted = false) {
  const ops = createLocalOperations();
  const native = ops.search as SearchOperations;
  const taken = { events: 0, paths: 0, fullEvents: 0, fullPaths: 0 };
  const scans = { sorted: 0, full: 0, running: 0, mostAtOnce: 0 };
  async function* tracked<T>(
    sortByPath: boolean | undefined,
    signal: AbortSignal | undefined,
    run: () => AsyncIterable<T>,
  ): AsyncGenerator<T> {
    if (sortByPath) scans.sorted++;
    else scans.full++;
    scans.running++;
    scans.mostAtOnce = Math.max(scans.mostAtOnce, scans.running);
    try {
      if (sortByPath && holdFirstSorted && scans.sorted === 1) {
        await new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          else signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        throw new OperationError("aborted", "search aborted", { operation: "search" });
      }
      yield* run();
    } finally {
      scans.running--;
    }
  }
  const search: SearchOperations = {
    ...(sorts ? { sortsByPath: true } : {}),
    async *grep(request, options) {
      for await (const event of tracked(request.sortByPath, options?.signal, () =>
        native.grep(request, options),
      )) {
        if (request.sortByPath) taken.events++;
        else taken.fullEvents++;
        yield event;
      }
    },
    async *files(request, options) {
      for await (const path of tracked(request.sortByPath, options?.signal, () =>
        native.files(request, options),
      )) {
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
  return { grep, find, taken, scans };
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

  it("a sorted grep scan that stalls is stopped before the full scan starts; a page that fills runs it again", async () => {
    const unsorted = counted(false);
    // A dense page: the full scan's results prove the page fills, so it is stopped early too.
    const held = counted(true, true);
    const grepArgs = { pattern: "word", limit: 15, offset: 20 };
    const early = await invokeTool(held.grep, grepArgs);
    expect(text(early)).toBe(text(await invokeTool(unsorted.grep, grepArgs)));
    expect(held.scans).toMatchObject({ sorted: 2, full: 1, mostAtOnce: 1 });
    expect(held.taken.fullEvents).toBeGreaterThan(0);
    expect(held.taken.fullEvents).toBeLessThan(DIRS * LINES);
  });

  it("find starts with the full scan: a sparse listing is answered by it alone, a dense page by a sorted scan after it", async () => {
    const unsorted = counted(false);
    // Four paths: the page never fills, so no sorted scan runs at all.
    const sparse = counted(true);
    const sparseArgs = { pattern: "**/d*-x/*.txt", limit: 15 };
    const listed = await invokeTool(sparse.find, sparseArgs);
    expect(text(listed)).toBe(text(await invokeTool(unsorted.find, sparseArgs)));
    expect(text(listed)).toContain("d35-x/f.txt");
    expect(sparse.scans).toMatchObject({ sorted: 0, full: 1, mostAtOnce: 1 });
    // A page of 5: the full scan shows it fills (4 pages of paths), is stopped, the sorted scan answers.
    const dense = counted(true);
    const denseArgs = { pattern: "*.txt", limit: 5 };
    const found = await invokeTool(dense.find, denseArgs);
    expect(text(found)).toBe(text(await invokeTool(unsorted.find, denseArgs)));
    expect(dense.scans).toMatchObject({ sorted: 1, full: 1, mostAtOnce: 1 });
    expect(dense.taken.fullPaths).toBeLessThan(DIRS);
    expect(dense.taken.paths).toBeLessThan(DIRS / 2);
  });

  it("a search with few results is answered by the full scan alone once the sorted one is stopped", async () => {
    const unsorted = counted(false);
    const held = counted(true, true);
    // "after" is in the four d?5-x files: the page never fills, the full scan reads everything.
    const args = { pattern: "after", limit: 15 };
    const answer = await invokeTool(held.grep, args);
    expect(text(answer)).toBe(text(await invokeTool(unsorted.grep, args)));
    expect(text(answer)).toContain("d35-x/f.txt:1: word after the directory");
    expect(held.scans).toMatchObject({ sorted: 1, full: 1, mostAtOnce: 1 });
    expect(held.taken.fullEvents).toBe(4);
  });

  it("runs one scan at a time whatever the page", async () => {
    const search = counted(true);
    for (const args of [
      { pattern: "word", limit: 15 },
      { pattern: "after", limit: 15 },
      { pattern: "nowhere", limit: 15 },
    ]) {
      expect((await invokeTool(search.grep, args)).isError).toBe(false);
    }
    expect((await invokeTool(search.find, { pattern: "*.txt", limit: 100 })).isError).toBe(false);
    expect(search.scans.mostAtOnce).toBe(1);
  });
});
