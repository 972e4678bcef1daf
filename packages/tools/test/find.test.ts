/**
 * The find tool on a real tree, through the native listing (bundled ripgrep) and through the
 * portable walk: the same output either way, plus each parameter and each notice.
 */
import { isToolError } from "@tackle/agent-core";
import { contextForCall, type ToolSession } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/defaults.js";
import { comparePaths } from "../src/search/compare-paths.js";
import { unmarked } from "../src/testing/marker.js";
import { createFindToolDefinition, type FindParams } from "../src/tools/find.js";
import { makeContext, makeTree } from "./search-fixture.js";

const find = createFindToolDefinition();
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

async function run(params: FindParams, ctx = native, tool = find) {
  const call = contextForCall(ctx, { toolCallId: "call", toolName: tool.name, signal: undefined });
  const result = await tool.execute("call", params, undefined, undefined, call);
  const shown = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  // Exact assertions state the shown text; the marker itself is asserted by its own test.
  return { text: unmarked(shown, "find"), marked: shown, details: result.details };
}

describe("find", () => {
  it.each<[string, FindParams]>([
    ["a name glob", { pattern: "*.ts" }],
    ["a glob with /", { pattern: "src/**/*.ts" }],
    ["a glob anchored at the path", { pattern: "src/*.ts" }],
    ["a subdirectory", { pattern: "*.txt", path: "a" }],
    ["braces", { pattern: "*.{md,txt}" }],
    ["everything", { pattern: "*" }],
    ["limit", { pattern: "*", limit: 4 }],
    ["offset", { pattern: "*", limit: 4, offset: 4 }],
    ["a glob ignored files match", { pattern: "*.log" }],
    ["a negated glob", { pattern: "!*.txt" }],
    ["a glob with / into a nested repository", { pattern: "nested/**" }],
  ])("gives the same result natively and portably for %s", async (_name, params) => {
    const a = await run(params, native);
    const b = await run(params, portable);
    expect(a.text).toBe(b.text);
    expect({ ...a.details, engine: "" }).toEqual({ ...b.details, engine: "" });
    expect(a.details.count).toBeGreaterThan(0);
    expect(a.details.engine).toBe("native");
    expect(b.details.engine).toBe("portable");
  });

  it("returns relative POSIX paths, sorted like a walk, with hidden and unicode names", async () => {
    const { text } = await run({ pattern: "*.txt" });
    const lines = text.split("\n");
    expect(lines).toEqual([...lines].sort(comparePaths));
    expect(lines).toContain(".hidden/secret.txt");
    expect(lines).toContain("ünïcode/файл.txt");
    expect(lines).toContain("emoji-😀.txt");
    expect(lines.indexOf("a/x.txt")).toBeLessThan(lines.indexOf("a-b/x.txt"));
    expect(lines).not.toContain("link.txt");
  });

  it("matches a pattern without / at any depth and one with / against the whole path", async () => {
    expect((await run({ pattern: "more.ts" })).text).toBe("src/deep/more.ts");
    expect((await run({ pattern: "src/*.ts" })).text).toBe("src/main.ts\nsrc/util.ts");
    expect((await run({ pattern: "src/**/*.ts" })).text).toContain("src/deep/more.ts");
    expect((await run({ pattern: "deep/*.ts" })).text).toBe('No files match "deep/*.ts" in ..');
  });

  it("shows paths relative to the working directory when searching a subdirectory", async () => {
    expect((await run({ pattern: "*.ts", path: "src/deep" })).text).toBe("src/deep/more.ts");
  });

  it("never lets a glob take an ignored file or walk into an ignored directory, and never lists .git", async () => {
    for (const ctx of [native, portable]) {
      const ts = (await run({ pattern: "*.ts" }, ctx)).text.split("\n");
      expect(ts).not.toContain("nested/vendor/v.ts");
      expect(ts).not.toContain("src/generated.ts");
      expect((await run({ pattern: "*.log" }, ctx)).text).toBe("keep.log");
      expect((await run({ pattern: "build/**" }, ctx)).text).toBe('No files match "build/**" in ..');
      expect((await run({ pattern: "HEAD" }, ctx)).text).toBe('No files match "HEAD" in ..');
      const all = (await run({ pattern: "*" }, ctx)).text.split("\n");
      expect(all.some((line) => line.startsWith(".git/") || line.includes("/.git/"))).toBe(false);
      expect(all).not.toContain("build/out.js");
      expect(all).toContain(".env");
      const txt = (await run({ pattern: "*.txt", path: "src" }, ctx)).text;
      expect(txt).toBe('No files match "*.txt" in src.');
    }
  });

  it("says how to continue when the limit cuts, and offset continues without overlap", async () => {
    const all = (await run({ pattern: "*" })).text.split("\n");
    const first = await run({ pattern: "*", limit: 5 });
    expect(first.text).toContain("[Showing paths 1-5; more exist. Use offset=5 to see more,");
    const pages: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await run({ pattern: "*", limit: 5, offset });
      pages.push(...page.text.split("\n\n[")[0]!.split("\n"));
      if (page.details.nextOffset === undefined) break;
      offset = page.details.nextOffset;
    }
    expect(pages).toEqual(all);
  });

  it(`returns ${DEFAULTS.findLimit} paths by default`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < DEFAULTS.findLimit + 5; i++) files[`f/${String(i).padStart(4, "0")}.txt`] = "";
    const dir = await makeTree(files);
    try {
      for (const ops of [nativeOps, portableOps]) {
        const { text, details } = await run({ pattern: "*.txt" }, makeContext(ops, dir.root));
        expect(details.count).toBe(DEFAULTS.findLimit);
        expect(text.split("\n")[0]).toBe("f/0000.txt");
        expect(text).toContain(`Use offset=${DEFAULTS.findLimit} to see more`);
      }
    } finally {
      await dir.cleanup();
    }
  });

  it("cuts the output at the byte limit and names the offset that continues", async () => {
    const small = createFindToolDefinition({ maxBytes: 40 });
    const { text, details } = await run({ pattern: "*" }, native, small);
    expect(details.truncatedBy).toBe("bytes");
    const shown = text.split("\n\n[")[0]!.split("\n").length;
    expect(text).toContain(`[Output cut at 40 B: showing paths 1-${shown}. Use offset=${shown} to see more`);
  });

  it("says plainly when nothing matches", async () => {
    const { text, details } = await run({ pattern: "*.rs" });
    expect(text).toBe('No files match "*.rs" in ..');
    expect(details.count).toBe(0);
  });

  it("refuses a path outside the workspace and shows the resolved path", async () => {
    try {
      await run({ pattern: "*", path: "/etc" });
      throw new Error("find did not fail");
    } catch (error) {
      expect(isToolError(error, "outside_workspace")).toBe(true);
      expect((error as Error).message).toContain("/etc");
    }
  });
  it("keeps pages exact in one pass when the engine lists out of path order", async () => {
    // An engine that lists in reverse path order: the tool reads it once, to the end.
    let requests = 0;
    const reversed: Operations = {
      ...portableOps,
      search: {
        grep: (request, options) => nativeOps.search!.grep(request, options),
        async *files(request, options) {
          requests++;
          const all: string[] = [];
          for await (const path of nativeOps.search!.files(request, options)) all.push(path);
          let count = 0;
          for (const path of all.sort(comparePaths).reverse()) {
            yield path;
            if (++count >= (request.limit ?? Number.POSITIVE_INFINITY)) return;
          }
        },
      },
    };
    const ctx = makeContext(reversed, tree.root);
    for (const offset of [0, 3, 6]) {
      const params = { pattern: "*", limit: 3, offset };
      expect((await run(params, ctx)).text).toBe((await run(params, portable)).text);
    }
    expect(requests).toBe(3);
  });
  it("keeps pages exact when the engine lists in a shuffled order that starts in path order", async () => {
    // The first paths arrive in order by chance; a smaller one comes later. No early stop may trust that.
    const shuffled: Operations = {
      ...portableOps,
      search: {
        grep: (request, options) => nativeOps.search!.grep(request, options),
        async *files(request, options) {
          const all: string[] = [];
          for await (const path of nativeOps.search!.files({ ...request, limit: undefined }, options))
            all.push(path);
          const sorted = all.sort(comparePaths);
          // The 2nd..4th paths first, in order, then the rest with the smallest last.
          yield* [...sorted.slice(1, 4), ...sorted.slice(4), sorted[0]!];
        },
      },
    };
    const ctx = makeContext(shuffled, tree.root);
    for (const offset of [0, 1, 2]) {
      const params = { pattern: "*", limit: 2, offset };
      expect((await run(params, ctx)).text).toBe((await run(params, portable)).text);
    }
  });
});
