import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadGrammar, parseTree, parseWith, type SyntaxNode, startParse } from "../src/index.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** A grammar of the same ABI, from the package the runtime is copied from (a devDependency). */
const bashGrammar = join(
  dirname(require.resolve("@vscode/tree-sitter-wasm/package.json")),
  "wasm",
  "tree-sitter-bash.wasm",
);
const dist = pathToFileURL(fileURLToPath(new URL("../dist/index.js", import.meta.url))).href;

describe("the tree-sitter runtime", () => {
  it("parses with a grammar and frees the tree after the visit", async () => {
    const grammar = await loadGrammar(bashGrammar);
    const types = await parseWith(grammar, "echo hi | wc -l", (root) =>
      root.namedChildren.map((n) => n?.type),
    );
    expect(types).toEqual(["pipeline"]);
  });

  it("loads each grammar once per process", async () => {
    expect(loadGrammar(bashGrammar)).toBe(loadGrammar(bashGrammar));
    expect(await loadGrammar(bashGrammar)).toBe(await loadGrammar(bashGrammar));
  });

  it("hands out trees the caller owns, and re-parses an edited text", async () => {
    const grammar = await loadGrammar(bashGrammar);
    const tree = await parseTree(grammar, "if true; then echo; fi");
    try {
      expect(tree.rootNode.hasError).toBe(false);
    } finally {
      tree.delete();
    }
    const broken = await parseTree(grammar, "if true; then echo");
    try {
      expect(broken.rootNode.hasError).toBe(true);
    } finally {
      broken.delete();
    }
  });

  it("rejects a grammar file that does not exist, every time", async () => {
    const missing = join(dirname(bashGrammar), "tree-sitter-nothing.wasm");
    await expect(loadGrammar(missing)).rejects.toThrow();
    await expect(loadGrammar(missing)).rejects.toThrow();
  });

  it("two copies of the package in one process share one runtime: a grammar of one parses with the other", async () => {
    // Two URLs of the built module are two module instances, as two installed copies would be.
    const code = `
      const a = await import(${JSON.stringify(dist)});
      const b = await import(${JSON.stringify(`${dist}?second-copy`)});
      if (a === b) throw new Error("expected two module instances");
      const grammar = await a.loadGrammar(${JSON.stringify(bashGrammar)});
      const same = (await b.loadGrammar(${JSON.stringify(bashGrammar)})) === grammar;
      const type = await b.parseWith(grammar, "ls", (root) => root.namedChildren[0].type);
      console.log(JSON.stringify({ same, type }));
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code]);
    expect(JSON.parse(stdout)).toEqual({ same: true, type: "command" });
  });

  describe("a parse in steps", () => {
    /** 2,000 lines of bash: long enough that a parse takes many steps with a deadline already past. */
    const script = Array.from({ length: 2000 }, (_, i) =>
      i % 4 === 0 ? `if [ -f "file${i}" ]; then` : i % 4 === 3 ? "fi" : `  echo "line ${i}" | grep -c ${i}`,
    ).join("\n");
    /** The node types of a tree in document order: equal lists, equal trees for what the check reads. */
    const shape = (node: SyntaxNode): string =>
      `${node.type}${node.hasError ? "!" : ""}(${node.children.map((child) => (child ? shape(child) : "")).join(",")})`;

    it("resumes where each step stopped and ends with the same tree as one parse", async () => {
      const grammar = await loadGrammar(bashGrammar);
      const whole = await parseTree(grammar, script);
      const parse = await startParse(grammar, script);
      const progress: number[] = [];
      let tree = parse.step(0);
      while (!tree) {
        progress.push(parse.progress);
        // A deadline already past: each step stops at its first progress report.
        tree = parse.step(0);
      }
      try {
        expect(progress.length).toBeGreaterThan(10);
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(progress.at(-1)).toBeGreaterThan(0.5);
        expect(parse.ended).toBe(true);
        expect(parse.progress).toBe(1);
        expect(shape(tree.rootNode)).toBe(shape(whole.rootNode));
      } finally {
        tree.delete();
        whole.delete();
      }
    });

    it("finishes at once after some steps, and reports a broken text as one parse does", async () => {
      const grammar = await loadGrammar(bashGrammar);
      const broken = `${script}\nif true; then echo`;
      const parse = await startParse(grammar, broken);
      for (let i = 0; i < 5; i++) expect(parse.step(0)).toBeUndefined();
      expect(parse.progress).toBeGreaterThan(0);
      expect(parse.progress).toBeLessThan(1);
      const tree = parse.finish();
      try {
        expect(tree.rootNode.hasError).toBe(true);
        expect(parse.ended).toBe(true);
        expect(() => parse.step(0)).toThrow("this parse has ended");
      } finally {
        tree.delete();
      }
    });

    it("cancelled, it ends and can no longer step", async () => {
      const grammar = await loadGrammar(bashGrammar);
      const parse = await startParse(grammar, script);
      expect(parse.step(0)).toBeUndefined();
      parse.cancel();
      parse.cancel();
      expect(parse.ended).toBe(true);
      expect(() => parse.finish()).toThrow("this parse has ended");
    });
  });
});
