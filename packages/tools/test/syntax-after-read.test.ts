import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import { createLocalToolContext } from "../src/local.js";
import { backgroundParseOf, MAX_BACKGROUND_PARSES } from "../src/syntax/background-parse.js";
import { clearSyntaxCache, syntaxCacheStats } from "../src/syntax/cache-control.js";
import { syntaxLanguageOf } from "../src/syntax/check-syntax.js";
import { syntaxCacheKey } from "../src/syntax/parse-after-read.js";
import { cachedVerdict, latestTree, MAX_CACHED_FILES, MAX_TREE_CHARS } from "../src/syntax/parse-cache.js";
import { createEditToolDefinition, type EditDetails } from "../src/tools/edit.js";
import { createReadToolDefinition } from "../src/tools/read.js";
import { createWriteToolDefinition } from "../src/tools/write.js";
import { SYNTAX_CORPUS } from "./fixtures/syntax-corpus.js";

/**
 * The parse a read starts in the background (see `src/syntax/parse-after-read.ts`): the first
 * edit after a read re-parses incrementally from the read's tree, with the verdicts of a check
 * that never saw the read, whether the background parse is done, running or still waiting.
 */

const run = promisify(execFile);
let dir: string;
let ctx: ToolContext;
let read: AnyAgentTool;
let edit: AnyAgentTool;
let write: AnyAgentTool;

beforeEach(async () => {
  clearSyntaxCache();
  dir = await mkdtemp(join(tmpdir(), "tackle-syntax-read-"));
  ctx = createLocalToolContext({ cwd: dir });
  read = wrapToolDefinition(createReadToolDefinition(), () => ctx);
  edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
  write = wrapToolDefinition(createWriteToolDefinition(), () => ctx);
});

afterEach(async () => {
  await ctx.dispose();
  clearSyntaxCache();
  await rm(dir, { recursive: true, force: true });
});

const key = (file: string) => syntaxCacheKey(ctx, join(dir, file));
const feedbackOf = (outcome: ToolOutcome) => {
  expect(outcome.isError, JSON.stringify(outcome.content)).toBe(false);
  return (outcome.details as EditDetails).feedback;
};
/** Waits until no background parse is left (a large file takes many steps on a busy machine). */
const backgroundDone = () =>
  vi.waitFor(() => expect(syntaxCacheStats().backgroundParses).toBe(0), { timeout: 20_000, interval: 5 });

/** About 900,000 characters of TypeScript (under the check's 1 MiB): a parse of many steps. */
const bigTypeScript = Array.from({ length: 14000 }, (_, i) =>
  i % 5 === 0
    ? `export function handler${i}(input: Input): Output {`
    : i % 5 === 4
      ? "}"
      : `  const value${i} = compute(input, ${i}, "text ${i}") as number;`,
).join("\n");

describe("the first edit after a read: the corpus", () => {
  for (const entry of SYNTAX_CORPUS) {
    const breaks = entry.breaksAt !== undefined;
    it(`${entry.name}: ${breaks ? `warns at line ${entry.breaksAt}` : "no warning"}, as without the read`, async () => {
      await writeFile(join(dir, entry.file), entry.content);
      expect((await invokeTool(read, { path: entry.file })).isError).toBe(false);
      await backgroundDone();
      const language = syntaxLanguageOf(entry.file);
      // A file of a tree-sitter language is parsed once read; the others are checked by the edit.
      expect(latestTree(key(entry.file), language?.id ?? "")?.text).toBe(
        language?.grammar ? entry.content : undefined,
      );
      const feedback = feedbackOf(
        await invokeTool(edit, {
          path: entry.file,
          edits: [{ oldText: entry.oldText, newText: entry.newText }],
        }),
      );
      expect(feedback?.syntax.status).toBe(breaks ? "broken" : "parses");
      expect(feedback?.codes).toEqual(breaks ? ["syntax_broken"] : []);
      if (breaks) expect(feedback?.syntax.problems?.[0]?.line).toBe(entry.breaksAt);
    });
  }

  for (const entry of SYNTAX_CORPUS.filter((c) => c.breaksAt !== undefined)) {
    it(`${entry.name}: a file read while broken stays "still broken" after a further change, no warning`, async () => {
      const broken = entry.content.replace(entry.oldText, entry.newText);
      await writeFile(join(dir, entry.file), broken);
      await invokeTool(read, { path: entry.file });
      await backgroundDone();
      const outcome = await invokeTool(write, { path: entry.file, content: `${broken}\n` });
      const feedback = feedbackOf(outcome);
      expect(feedback?.syntax.status).toBe("still_broken");
      expect(feedback?.codes).toEqual([]);
    });
  }
});

describe("a read does not wait for its parse", () => {
  it("returns while the background parse of a large file is still queued or running", async () => {
    await writeFile(join(dir, "big.ts"), bigTypeScript);
    const outcome = await invokeTool(read, { path: "big.ts" });
    expect(outcome.isError).toBe(false);
    expect(backgroundParseOf(key("big.ts"))).toBeDefined();
    await backgroundDone();
    expect(latestTree(key("big.ts"), "typescript")?.text).toBe(bigTypeScript);
  });

  it("starts none when the session has no tool that changes files, or its syntax check is off", async () => {
    await writeFile(join(dir, "a.ts"), "export const a = 1;\n");
    const readOnly = wrapToolDefinition(createReadToolDefinition(), () => ctx, {
      toolNames: ["read", "grep"],
    });
    await invokeTool(readOnly, { path: "a.ts" });
    expect(syntaxCacheStats().backgroundParses).toBe(0);
    const off = createLocalToolContext({ cwd: dir, diagnostics: { syntax: false } });
    try {
      await invokeTool(
        wrapToolDefinition(createReadToolDefinition(), () => off),
        { path: "a.ts" },
      );
      expect(syntaxCacheStats().backgroundParses).toBe(0);
    } finally {
      await off.dispose();
    }
  });
});

describe("an edit that meets its file's background parse", () => {
  it("finishes a parse that has started, then re-parses incrementally: the verdict of a fresh parse", async () => {
    await writeFile(join(dir, "big.ts"), bigTypeScript);
    await invokeTool(read, { path: "big.ts" });
    await vi.waitFor(() => expect(backgroundParseOf(key("big.ts"))?.state).toBe("parsing"), { interval: 1 });
    const outcome = await invokeTool(edit, {
      path: "big.ts",
      edits: [
        {
          oldText: "export function handler5(input: Input): Output {",
          newText: "export function handler5(input: Input: Output {",
        },
      ],
    });
    const feedback = feedbackOf(outcome);
    expect(feedback?.syntax.status).toBe("broken");
    expect(feedback?.syntax.problems?.[0]?.line).toBe(6);
    expect(backgroundParseOf(key("big.ts"))).toBeUndefined();
    expect(syntaxCacheStats().backgroundParses).toBe(0);
    // The read's text is the file's previous text in the cache: the parse was finished, not dropped.
    expect(cachedVerdict(key("big.ts"), "typescript", bigTypeScript)).toEqual([]);
  });

  it("drops a parse still waiting its turn and parses as without the read", async () => {
    await writeFile(join(dir, "first.ts"), bigTypeScript);
    await writeFile(join(dir, "second.ts"), bigTypeScript);
    await invokeTool(read, { path: "first.ts" });
    await invokeTool(read, { path: "second.ts" });
    // One file is parsed at a time, oldest first.
    expect(backgroundParseOf(key("second.ts"))?.state).toBe("waiting");
    const outcome = await invokeTool(edit, {
      path: "second.ts",
      edits: [{ oldText: "  const value1 = ", newText: "  const value1 = (" }],
    });
    expect(feedbackOf(outcome)?.syntax.status).toBe("broken");
    // Dropped, not finished: the text read is not in the cache (the check parsed it on its own).
    expect(backgroundParseOf(key("second.ts"))).toBeUndefined();
    expect(cachedVerdict(key("second.ts"), "typescript", bigTypeScript)).toBeUndefined();
    await backgroundDone();
    expect(latestTree(key("first.ts"), "typescript")?.text).toBe(bigTypeScript);
  });

  it("an edit of a file already broken when read, racing its parse, gives no false alarm", async () => {
    const broken = `${bigTypeScript}\nexport function tail( {`;
    await writeFile(join(dir, "broken.ts"), broken);
    await invokeTool(read, { path: "broken.ts" });
    const outcome = await invokeTool(edit, {
      path: "broken.ts",
      edits: [{ oldText: "  const value1 = ", newText: "  const value1 = (" }],
    });
    expect(feedbackOf(outcome)?.syntax.status).toBe("still_broken");
  });

  it("a file edited with no read before is checked as it always was", async () => {
    await writeFile(join(dir, "plain.py"), "def f():\n    return 1\n");
    const outcome = await invokeTool(edit, {
      path: "plain.py",
      edits: [{ oldText: "    return 1", newText: "return 1" }],
    });
    expect(feedbackOf(outcome)?.syntax).toMatchObject({ status: "broken", problems: [{ line: 2 }] });
    expect(syntaxCacheStats().backgroundParses).toBe(0);
  });
});

describe("bounds and disposal", () => {
  it(`keeps at most ${MAX_BACKGROUND_PARSES} files waiting, dropping the oldest`, async () => {
    const count = MAX_BACKGROUND_PARSES + 3;
    for (let i = 0; i < count; i++) {
      await writeFile(join(dir, `f${i}.ts`), `${bigTypeScript}\n// ${i}`);
      await invokeTool(read, { path: `f${i}.ts` });
      expect(syntaxCacheStats().backgroundParses).toBeLessThanOrEqual(MAX_BACKGROUND_PARSES);
    }
    expect(backgroundParseOf(key(`f${count - 1}.ts`))).toBeDefined();
    expect(backgroundParseOf(key("f0.ts"))).toBeUndefined();
  });

  it(`keeps the last text of at most ${MAX_CACHED_FILES} files, however many are read`, async () => {
    for (let i = 0; i < MAX_CACHED_FILES + 5; i++) {
      await writeFile(join(dir, `s${i}.py`), `def f${i}():\n    return ${i}\n`);
      await invokeTool(read, { path: `s${i}.py` });
      await backgroundDone();
    }
    expect(syntaxCacheStats()).toMatchObject({ files: MAX_CACHED_FILES, backgroundParses: 0 });
    expect(latestTree(key("s0.py"), "python")).toBeUndefined();
    expect(latestTree(key(`s${MAX_CACHED_FILES + 4}.py`), "python")).toBeDefined();
  });

  it(`keeps the trees of at most ${MAX_TREE_CHARS} characters of text: older files keep their verdict, not their tree`, async () => {
    const files = Math.ceil(MAX_TREE_CHARS / bigTypeScript.length) + 1;
    for (let i = 0; i < files; i++) {
      await writeFile(join(dir, `t${i}.ts`), `${bigTypeScript}\n// ${i}`);
      await invokeTool(read, { path: `t${i}.ts` });
      await backgroundDone();
      expect(syntaxCacheStats().treeChars).toBeLessThanOrEqual(MAX_TREE_CHARS);
    }
    expect(latestTree(key("t0.ts"), "typescript")).toBeUndefined();
    expect(cachedVerdict(key("t0.ts"), "typescript", `${bigTypeScript}\n// 0`)).toEqual([]);
    expect(latestTree(key(`t${files - 1}.ts`), "typescript")).toBeDefined();
    // A file whose tree went is checked as on a first change: a full parse, the same verdict.
    const outcome = await invokeTool(edit, {
      path: "t0.ts",
      edits: [{ oldText: "  const value1 = ", newText: "  const value1 = (" }],
    });
    expect(feedbackOf(outcome)?.syntax.status).toBe("broken");
  });

  it("disposing a context drops the background parses it started, not another session's", async () => {
    const other = createLocalToolContext({ cwd: dir });
    try {
      const otherRead = wrapToolDefinition(createReadToolDefinition(), () => other);
      await writeFile(join(dir, "mine.ts"), bigTypeScript);
      await writeFile(join(dir, "theirs.ts"), bigTypeScript);
      await invokeTool(read, { path: "mine.ts" });
      await invokeTool(otherRead, { path: "theirs.ts" });
      expect(syntaxCacheStats().backgroundParses).toBe(2);
      await ctx.dispose();
      expect(backgroundParseOf(key("mine.ts"))).toBeUndefined();
      expect(backgroundParseOf(key("theirs.ts"))).toBeDefined();
      await other.dispose();
      expect(syntaxCacheStats().backgroundParses).toBe(0);
    } finally {
      await other.dispose();
    }
  });

  /** Runs `then` (an ES module body) in a fresh process after a read of big.ts; its output. */
  const afterReadInProcess = async (then: string) => {
    await writeFile(join(dir, "big.ts"), bigTypeScript);
    const dist = (file: string) =>
      pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `
        const tools = await import(${JSON.stringify(dist("index.js"))});
        const local = await import(${JSON.stringify(dist("local.js"))});
        const { invokeTool } = await import("@tackle/agent-core");
        const context = local.createLocalToolContext({ cwd: ${JSON.stringify(dir)} });
        const read = tools.createTool("read", { context });
        const outcome = await invokeTool(read, { path: "big.ts" });
        if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
        ${then}
        `,
      ],
      { cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    return JSON.parse(stdout);
  };

  it("a process with a background parse left exits without waiting for it", async () => {
    // Not disposed: nothing but the background parse is left.
    const stats = await afterReadInProcess(
      `process.on("exit", () => console.log(JSON.stringify(tools.syntaxCacheStats())));`,
    );
    expect(stats).toMatchObject({ backgroundParses: 1 });
  });

  it("a background parse goes on while the process only waits (as a host waits for the model)", async () => {
    // One wake-up a second, as a host waiting on the network: the parse (dozens of steps) must
    // not need a wake-up per step.
    const result = await afterReadInProcess(`
      let ticks = 0;
      const timer = setInterval(() => {
        ticks++;
        const left = tools.syntaxCacheStats().backgroundParses;
        if (left === 0 || ticks === 5) {
          clearInterval(timer);
          console.log(JSON.stringify({ left }));
        }
      }, 1000);
    `);
    expect(result).toEqual({ left: 0 });
  });
});
