/**
 * The grep tool on a real tree, through the native search (bundled ripgrep) and through the
 * portable walk: the same output either way, plus each parameter and each notice.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, isToolError } from "@tackle/agent-core";
import { contextForCall, type ToolSession, wrapToolDefinition } from "@tackle/extensions";
import { type GrepEvent, type GrepRequest, OperationError, type Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/defaults.js";
import { comparePaths } from "../src/search/compare-paths.js";
import { unmarked } from "../src/testing/marker.js";
import { createGrepToolDefinition, type GrepParams } from "../src/tools/grep.js";
import { makeContext, makeTree } from "./search-fixture.js";

const grep = createGrepToolDefinition();
const nativeOps = createLocalOperations();
const portableOps = createLocalOperations({ rgPath: false });
let tree: { root: string; cleanup: () => Promise<void> };
let native: ToolSession;
let portable: ToolSession;

beforeAll(async () => {
  tree = await makeTree();
  native = makeContext(nativeOps, tree.root);
  portable = makeContext(portableOps, tree.root);
});
afterAll(() => tree.cleanup());

async function run(params: GrepParams, ctx = native, tool = grep) {
  const call = contextForCall(ctx, { toolCallId: "call", toolName: tool.name, signal: undefined });
  const result = await tool.execute("call", params, undefined, undefined, call);
  const shown = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  // Exact assertions state the shown text; the marker itself is asserted by its own test.
  return { text: unmarked(shown, "grep"), marked: shown, details: result.details };
}

async function failure(params: GrepParams, ctx = native) {
  try {
    await run(params, ctx);
  } catch (error) {
    if (isToolError(error)) return error;
    throw error;
  }
  throw new Error("grep did not fail");
}

describe("grep", () => {
  it("uses the native search when the environment has one, the portable walk otherwise", async () => {
    expect((await run({ pattern: "needle" }, native)).details.engine).toBe("native");
    expect((await run({ pattern: "needle" }, portable)).details.engine).toBe("portable");
  });

  it.each<[string, GrepParams]>([
    ["a plain pattern", { pattern: "needle" }],
    ["ignoreCase", { pattern: "todo", ignoreCase: true }],
    ["context", { pattern: "needle", context: 1 }],
    ["a glob", { pattern: "needle", glob: "*.ts" }],
    ["a glob with /", { pattern: "needle", glob: "src/**/*.ts" }],
    ["a glob ignored files match", { pattern: "needle", glob: "*.log" }],
    ["a glob matching every name", { pattern: "needle", glob: "*" }],
    ["a glob with / into a nested repository", { pattern: "needle", glob: "nested/**" }],
    ["a subdirectory", { pattern: "needle", path: "src" }],
    ["one file", { pattern: "needle", path: "crlf.txt" }],
    ["limit", { pattern: "needle", limit: 3 }],
    ["offset", { pattern: "needle", limit: 3, offset: 3, context: 1 }],
    ["a literal", { pattern: "'./util'", literal: true }],
    ["-e", { pattern: "-e" }],
    ["--files", { pattern: "--files" }],
  ])("gives the same result natively and portably for %s", async (_name, params) => {
    const a = await run(params, native);
    const b = await run(params, portable);
    expect(a.text).toBe(b.text);
    expect({ ...a.details, engine: "" }).toEqual({ ...b.details, engine: "" });
    expect(a.details.matches).toBeGreaterThan(0);
  });

  it("answers `path:line: text` sorted by path then line, paths relative to cwd (POSIX)", async () => {
    const { text } = await run({ pattern: "needle", path: "src" });
    expect(text).toBe(
      [
        "src/deep/more.ts:2: needle deep",
        "src/main.ts:2: // TODO: needle one",
        "src/main.ts:5: // todo: needle two",
        "src/util.ts:2:   return 'needle';",
      ].join("\n"),
    );
  });

  it("orders paths segment by segment like a sorted walk (a/x.txt before a-b/x.txt)", async () => {
    const { text } = await run({ pattern: "needle", glob: "x.txt" });
    expect(text).toBe(["a/x.txt:1: needle a/x.txt", "a-b/x.txt:1: needle a-b/x.txt"].join("\n"));
  });

  it("shows context lines as `path-line- text`", async () => {
    const { text } = await run({ pattern: "needle", path: "src/main.ts", context: 1 });
    expect(text).toBe(
      [
        "src/main.ts-1- import { util } from './util';",
        "src/main.ts:2: // TODO: needle one",
        "src/main.ts-3- const x = 1;",
        "src/main.ts-4- const y = 2;",
        "src/main.ts:5: // todo: needle two",
        "src/main.ts-6- export {};",
      ].join("\n"),
    );
  });

  it("keeps .gitignore rules when a glob names ignored files or directories", async () => {
    for (const ctx of [native, portable]) {
      const logs = (await run({ pattern: "needle", glob: "*.log" }, ctx)).text;
      expect(logs).toContain("keep.log:1:");
      expect(logs).not.toContain("app.log");
      const built = (await run({ pattern: "needle", glob: "build/*" }, ctx)).text;
      expect(built).toBe('No matches for "needle" in . (files matching "build/*").');
      const vendored = (await run({ pattern: "needle", glob: "*" }, ctx)).text;
      expect(vendored).not.toContain("nested/vendor/v.ts");
      expect(vendored).not.toContain("src/generated.ts");
    }
  });

  it("respects .gitignore, includes hidden files, skips .git, symlinks and binary files", async () => {
    const { text } = await run({ pattern: "needle" });
    expect(text).toContain(".env:1: TOKEN_NAME=needle-in-hidden");
    expect(text).toContain(".hidden/secret.txt:1:");
    expect(text).toContain("keep.log:1:");
    expect(text).not.toContain("app.log");
    expect(text).not.toContain("build/out.js");
    expect(text).not.toContain("src/generated.ts");
    expect(text).not.toContain("link.txt");
    expect(text).not.toContain("binary.bin");
    expect(text).toContain("ünïcode/файл.txt:1: needle ünïcode");
    expect(text).toContain("utf16.txt:1: needle utf16");
    expect(text).toContain("bom.txt:1: needle after bom");
    expect(text).toContain("crlf.txt:2: needle crlf\n");
  });

  it("treats flag-like patterns as patterns", async () => {
    expect((await run({ pattern: "-e" })).text).toContain("flags.txt:3: -e");
    expect((await run({ pattern: "--files" })).text).toBe("flags.txt:2: rg --files lists");
  });

  it("matches case-insensitively with ignoreCase and literally with literal", async () => {
    expect((await run({ pattern: "TODO", path: "src" })).details.matches).toBe(1);
    expect((await run({ pattern: "TODO", path: "src", ignoreCase: true })).details.matches).toBe(2);
    expect((await run({ pattern: "x.txt", literal: true, glob: "*.txt" })).text).not.toContain("ax.txt");
    expect((await run({ pattern: "(one|two)", literal: true })).text).toBe(
      'No matches for "(one|two)" in ..',
    );
  });

  it("says how to continue when the limit cuts, and offset continues without overlap", async () => {
    const all = (await run({ pattern: "needle", limit: 1000 })).text.split("\n");
    const first = await run({ pattern: "needle", limit: 5 });
    expect(first.text).toContain("[Showing matches 1-5; more exist. Use offset=5 to see more,");
    expect(first.details.nextOffset).toBe(5);
    const lines: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await run({ pattern: "needle", limit: 5, offset });
      lines.push(...page.text.split("\n\n[")[0]!.split("\n"));
      if (page.details.nextOffset === undefined) break;
      offset = page.details.nextOffset;
    }
    expect(lines).toEqual(all);
  });

  it(`returns ${DEFAULTS.grepLimit} matches by default`, async () => {
    const dir = await makeTree({ "many.txt": "hit\n".repeat(DEFAULTS.grepLimit + 20) });
    try {
      const ctx = makeContext(nativeOps, dir.root);
      const { text, details } = await run({ pattern: "hit" }, ctx);
      expect(details.matches).toBe(DEFAULTS.grepLimit);
      expect(text).toContain(`Use offset=${DEFAULTS.grepLimit} to see more`);
      const rest = await run({ pattern: "hit", offset: DEFAULTS.grepLimit }, ctx);
      expect(rest.details.matches).toBe(20);
      expect(rest.details.nextOffset).toBeUndefined();
    } finally {
      await dir.cleanup();
    }
  });

  it("asks for less context when context alone fills the output before the first match", async () => {
    const dir = await makeTree({ "ctx.txt": `${"filler line of some length\n".repeat(30)}needle\n` });
    try {
      const small = createGrepToolDefinition({ maxBytes: 200 });
      const { text, details } = await run(
        { pattern: "needle", context: 30 },
        makeContext(nativeOps, dir.root),
        small,
      );
      expect(text).toContain(
        "[Output cut at 200 B before the first match; call again with a smaller context.]",
      );
      expect(details.nextOffset).toBeUndefined();
    } finally {
      await dir.cleanup();
    }
  });

  it("caps limit at the number of lines the output can show", async () => {
    const small = createGrepToolDefinition({ maxLines: 3 });
    const { text, details } = await run({ pattern: "needle", limit: 1000 }, native, small);
    expect(details.limit).toBe(3);
    expect(details.matches).toBe(3);
    expect(text).toContain("Use offset=3 to see more");
  });

  it(`cuts lines at ${DEFAULTS.grepMaxLineLength} characters and says so`, async () => {
    const long = `needle ${"x".repeat(DEFAULTS.grepMaxLineLength + 100)}`;
    const dir = await makeTree({ "long.txt": `${long}\nneedle short\n` });
    try {
      for (const ops of [nativeOps, portableOps]) {
        const { text, details } = await run({ pattern: "needle" }, makeContext(ops, dir.root));
        const first = text.split("\n")[0]!;
        expect(first).toBe(`long.txt:1: ${long.slice(0, DEFAULTS.grepMaxLineLength)}… [107 more characters]`);
        expect(details.linesCut).toBe(1);
        expect(text).toContain(`1 line was longer than ${DEFAULTS.grepMaxLineLength} characters and cut`);
      }
    } finally {
      await dir.cleanup();
    }
  });

  it("a line of several MB is cut by the engine itself: the same short result natively and portably", async () => {
    const huge = `needle ${"x".repeat(4 * 1024 * 1024)}`;
    const dir = await makeTree({ "huge.txt": `${huge}\nneedle short\n` });
    try {
      const texts: string[] = [];
      for (const ops of [nativeOps, portableOps]) {
        const { text, details } = await run({ pattern: "needle" }, makeContext(ops, dir.root));
        const [first, second] = text.split("\n");
        expect(first).toBe(
          `huge.txt:1: ${huge.slice(0, DEFAULTS.grepMaxLineLength)}… [over 1024 more characters]`,
        );
        expect(second).toBe("huge.txt:2: needle short");
        expect(details.linesCut).toBe(1);
        expect(text.length).toBeLessThan(DEFAULTS.grepMaxLineLength + 500);
        texts.push(text);
      }
      expect(texts[0]).toBe(texts[1]);
    } finally {
      await dir.cleanup();
    }
  });

  it("cuts the whole output at the byte limit and names the offset that continues", async () => {
    const small = createGrepToolDefinition({ maxBytes: 200 });
    const { text, details } = await run({ pattern: "needle" }, native, small);
    expect(details.truncatedBy).toBe("bytes");
    const shown = text.split("\n\n[")[0]!.split("\n").length;
    expect(details.nextOffset).toBe(shown);
    expect(text).toContain(
      `[Output cut at 200 B: showing matches 1-${shown}. Use offset=${shown} to see more`,
    );
  });

  it("separates groups of lines that are not adjacent with --", async () => {
    const { text } = await run({ pattern: "^(import|export)", path: "src/main.ts" });
    expect(text).toBe("src/main.ts:1: import { util } from './util';\nsrc/main.ts:6: export {};");
    const withContext = await run({ pattern: "^(import|export)", path: "src/main.ts", context: 1 });
    expect(withContext.text).toBe(
      [
        "src/main.ts:1: import { util } from './util';",
        "src/main.ts-2- // TODO: needle one",
        "--",
        "src/main.ts-5- // todo: needle two",
        "src/main.ts:6: export {};",
      ].join("\n"),
    );
  });

  it("reads a native directory search to the end, in one request, even when it arrives in order", async () => {
    // ripgrep searches in parallel: results that arrive in path order so far prove nothing, a
    // smaller path may still come. The engine gets no cap; the tool reads every result.
    const requests: GrepRequest[] = [];
    let pulled = 0;
    const sortedOps: Operations = {
      ...nativeOps,
      search: {
        files: (request, options) => nativeOps.search!.files(request, options),
        async *grep(request, options) {
          requests.push(request);
          const all: GrepEvent[] = [];
          for await (const event of nativeOps.search!.grep(request, options)) all.push(event);
          const paths = [...new Set(all.map((event) => event.path))].sort(comparePaths);
          for (const path of paths) {
            for (const event of all.filter((e) => e.path === path)) {
              if (event.type === "match") pulled++;
              yield event;
            }
          }
        },
      },
    };
    const ctx = makeContext(sortedOps, tree.root);
    const { details, text } = await run({ pattern: "needle", limit: 2, offset: 1 }, ctx);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.maxMatches).toBeUndefined();
    const all = (await run({ pattern: "needle", limit: 50 })).details.matches;
    expect(all).toBeGreaterThan(4);
    expect(pulled).toBe(all);
    expect(details.nextOffset).toBe(3);
    expect(text).toBe((await run({ pattern: "needle", limit: 2, offset: 1 }, portable)).text);
  });

  it("stops a search of one file, which comes in line order, once offset + limit + 1 matches are in", async () => {
    let pulled = 0;
    const counting: Operations = {
      ...nativeOps,
      search: {
        files: (request, options) => nativeOps.search!.files(request, options),
        async *grep(request, options) {
          for await (const event of nativeOps.search!.grep(request, options)) {
            if (event.type === "match") pulled++;
            yield event;
          }
        },
      },
    };
    const params = { pattern: "needle|const", path: "src/main.ts", limit: 1, offset: 1 };
    const { details, text } = await run(params, makeContext(counting, tree.root));
    expect(pulled).toBe(3);
    expect(details.nextOffset).toBe(2);
    expect(text).toBe((await run(params, portable)).text);
  });

  it("shows matches in the context after the page's last match as context lines", async () => {
    // Lines 3 and 4 match too: they belong to the next page, but lie within the context of line 2.
    const params = { pattern: "needle|const", path: "src/main.ts", limit: 1, context: 2 };
    for (const ctx of [native, portable]) {
      const { text, details } = await run(params, ctx);
      expect(text.split("\n").slice(0, 4)).toEqual([
        "src/main.ts-1- import { util } from './util';",
        "src/main.ts:2: // TODO: needle one",
        "src/main.ts-3- const x = 1;",
        "src/main.ts-4- const y = 2;",
      ]);
      expect(details.nextOffset).toBe(1);
    }
  });

  it("keeps pages exact when the engine delivers out of path order", async () => {
    // An engine that delivers files in reverse order: the tool must still page by path.
    const reversed: Operations = {
      ...portableOps,
      search: {
        files: (request, options) => nativeOps.search!.files(request, options),
        async *grep(request, options) {
          const all: GrepEvent[] = [];
          for await (const event of nativeOps.search!.grep({ ...request, maxMatches: undefined }, options))
            all.push(event);
          const byFile = new Map<string, GrepEvent[]>();
          for (const event of all) byFile.set(event.path, [...(byFile.get(event.path) ?? []), event]);
          let matches = 0;
          for (const events of [...byFile.values()].reverse()) {
            for (const event of events) {
              yield event;
              if (event.type === "match" && ++matches >= (request.maxMatches ?? Number.POSITIVE_INFINITY))
                return;
            }
          }
        },
      },
    };
    const ctx = makeContext(reversed, tree.root);
    for (const offset of [0, 4, 8]) {
      const params = { pattern: "needle", limit: 4, offset, context: 1 };
      expect((await run(params, ctx)).text).toBe((await run(params, portable)).text);
    }
  });

  it("keeps pages exact for an engine that delivers files in a shuffled order", async () => {
    let seed = 7;
    const shuffled: Operations = {
      ...portableOps,
      search: {
        files: (request, options) => nativeOps.search!.files(request, options),
        async *grep(request, options) {
          const byFile = new Map<string, GrepEvent[]>();
          for await (const event of nativeOps.search!.grep({ ...request, maxMatches: undefined }, options))
            byFile.set(event.path, [...(byFile.get(event.path) ?? []), event]);
          const files = [...byFile.values()];
          for (let i = files.length - 1; i > 0; i--) {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            const j = seed % (i + 1);
            [files[i], files[j]] = [files[j]!, files[i]!];
          }
          for (const events of files) yield* events;
        },
      },
    };
    const ctx = makeContext(shuffled, tree.root);
    let compared = 0;
    for (const [limit, offset, context] of [
      [1, 0, 0],
      [2, 1, 1],
      [3, 2, 0],
      [5, 0, 2],
      [2, 7, 0],
    ] as const) {
      const params = { pattern: "needle|const", limit, offset, context };
      expect((await run(params, ctx)).text).toBe((await run(params, portable)).text);
      compared++;
    }
    expect(compared).toBe(5);
  });

  it("pages through files with many matches exactly, the same on both engines", async () => {
    // Each file holds more matches than a page can need: the tool keeps only the first of them.
    const dir = await mkdtemp(join(tmpdir(), "tackle-grep-many-"));
    try {
      for (const name of ["b.txt", "a.txt", "c/d.txt"]) {
        await mkdir(join(dir, "c"), { recursive: true });
        const lines = Array.from({ length: 40 }, (_, i) => (i % 3 === 2 ? `plain ${i}` : `hit ${name} ${i}`));
        await writeFile(join(dir, name), `${lines.join("\n")}\n`);
      }
      const nativeCtx = makeContext(nativeOps, dir);
      const portableCtx = makeContext(portableOps, dir);
      let pages = 0;
      for (const [limit, offset, context] of [
        [3, 0, 0],
        [4, 2, 2],
        [5, 25, 1],
        [2, 26, 3],
        [6, 53, 2],
      ] as const) {
        const params = { pattern: "hit", limit, offset, context };
        const a = await run(params, nativeCtx);
        expect(a.details.matches).toBeGreaterThan(0);
        expect(a.text).toBe((await run(params, portableCtx)).text);
        pages++;
      }
      expect(pages).toBe(5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("hands over to the portable walk when the native search says not_supported", async () => {
    const unsupported: Operations = {
      ...portableOps,
      search: {
        // biome-ignore lint/correctness/useYield: fails before any result, as an adapter without rg does.
        async *grep() {
          throw new OperationError("not_supported", "no rg here");
        },
        // biome-ignore lint/correctness/useYield: same.
        async *files() {
          throw new OperationError("not_supported", "no rg here");
        },
      },
    };
    const ctx = makeContext(unsupported, tree.root);
    expect((await run({ pattern: "needle", path: "src" }, ctx)).text).toBe(
      (await run({ pattern: "needle", path: "src" }, portable)).text,
    );
  });

  it("refuses a context over its maximum before searching, naming the field and the bound", async () => {
    const tool = wrapToolDefinition(grep, () => native);
    for (const context of [2 ** 31, 1e300, DEFAULTS.grepMaxContext + 1]) {
      const outcome = await invokeTool(tool, { pattern: "needle", context });
      expect(outcome.errorCode, String(context)).toBe("invalid_arguments");
      const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      expect(text).toContain("context");
      expect(text).toContain(String(DEFAULTS.grepMaxContext));
      expect(text).not.toContain("regular expression");
    }
    const atBound = await invokeTool(tool, { pattern: "needle", context: DEFAULTS.grepMaxContext });
    expect(atBound.isError).toBe(false);
  });

  it("refuses an invalid regex with invalid_arguments, the engine's message and the literal hint", async () => {
    for (const ctx of [native, portable]) {
      const error = await failure({ pattern: "foo(" }, ctx);
      expect(error.code).toBe("invalid_arguments");
      expect(error.message).toContain('Invalid regular expression "foo("');
      expect(error.message).toContain("literal=true");
    }
    expect((await run({ pattern: "foo(", literal: true })).text).toBe('No matches for "foo(" in ..');
  });

  it("refuses a path outside the workspace and shows the resolved path", async () => {
    const error = await failure({ pattern: "root", path: "/etc" });
    expect(error.code).toBe("outside_workspace");
    expect(error.message).toContain("/etc");
  });

  it("stops with aborted when the call is aborted, on both engines", async () => {
    for (const ctx of [native, portable]) {
      const controller = new AbortController();
      controller.abort();
      await expect(
        grep.execute(
          "call",
          { pattern: "needle" },
          controller.signal,
          undefined,
          contextForCall(ctx, { toolCallId: "call", toolName: "grep", signal: controller.signal }),
        ),
      ).rejects.toMatchObject({
        code: "aborted",
      });
    }
  });

  it("answers a missing path with not_found", async () => {
    const error = await failure({ pattern: "x", path: "nope" });
    expect(error.code).toBe("not_found");
  });

  it("says plainly when nothing matches, naming the glob", async () => {
    const { text, details } = await run({ pattern: "zebra", glob: "*.md" });
    expect(text).toBe('No matches for "zebra" in . (files matching "*.md").');
    expect(details.matches).toBe(0);
  });

  it("sees a file written after an earlier search", async () => {
    await writeFile(join(tree.root, "src", "fresh.ts"), "const fresh = 'needle fresh';\n");
    try {
      for (const ctx of [native, portable]) {
        expect((await run({ pattern: "needle fresh" }, ctx)).text).toBe(
          "src/fresh.ts:1: const fresh = 'needle fresh';",
        );
      }
    } finally {
      await rm(join(tree.root, "src", "fresh.ts"));
    }
  });
});
