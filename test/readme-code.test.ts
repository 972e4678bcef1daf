import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { checkReadmeCode, extractTypeScriptBlocks, markdownFiles } from "../scripts/readme-code.mjs";
import { tempDirs } from "./temp-tree.js";

const root = path.resolve(import.meta.dirname, "..");
const temps = tempDirs();
const markdown = (text: string) =>
  path.join(temps.tree("tackle-readme-test-", { "README.md": text }), "README.md");

describe("README code blocks", () => {
  it("finds ts and typescript blocks with the line of their first code line, and nothing else", () => {
    const text = [
      "# title", // 1
      "```sh", // 2
      "npm install x", // 3
      "```", // 4
      "```ts", // 5
      "const a = 1;", // 6
      "```", // 7
      "```typescript", // 8
      "const b = 2;", // 9
      "```", // 10
      "```js", // 11
      "const c = 3;", // 12
      "```", // 13
    ].join("\n");
    const { blocks, problems } = extractTypeScriptBlocks(text);
    expect(blocks).toEqual([
      { line: 6, code: "const a = 1;" },
      { line: 9, code: "const b = 2;" },
    ]);
    expect(problems).toEqual([]);
  });

  it("leaves a block out only with a reason, and reports a marker without one", () => {
    const text = [
      "<!-- not-compiled: needs a live SSH host -->", // 1
      "```ts", // 2
      "connect();", // 3
      "```", // 4
      "<!-- not-compiled: -->", // 5
      "```ts", // 6
      "other();", // 7
      "```", // 8
    ].join("\n");
    const { blocks, problems } = extractTypeScriptBlocks(text);
    expect(blocks).toEqual([
      { line: 3, skipped: "needs a live SSH host" },
      { line: 7, code: "other();" },
    ]);
    expect(problems).toEqual([{ line: 5, message: "not-compiled marker without a reason" }]);
  });

  it("reports a type error at its line in the Markdown file, under noUncheckedIndexedAccess", () => {
    const file = markdown(
      [
        "# demo",
        "",
        "```ts",
        'import { invokeTool } from "@tackle/agent-core";',
        'import { createTool } from "@tackle/tools";',
        "",
        'const outcome = await invokeTool(createTool("read", { cwd: "/tmp" }), { path: "x" });',
        "console.log(outcome.content[0].text);",
        "```",
      ].join("\n"),
    );
    const { compiled, errors } = checkReadmeCode(root, [file]);
    expect(compiled).toBe(1);
    expect(
      errors.map((e: { line: number; message: string }) => `${e.line} ${e.message.slice(0, 12)}`),
    ).toEqual(expect.arrayContaining(["8 error TS2532", "8 error TS2339"]));
  }, 120_000);

  it("compiles a block that imports a workspace package and a third-party one", () => {
    const file = markdown(
      [
        "```ts",
        'import { Type } from "@sinclair/typebox";',
        'import { defineTool } from "@tackle/extensions";',
        "",
        "defineTool({",
        '  name: "noop",',
        '  label: "Noop",',
        '  description: "Does nothing.",',
        "  annotations: { readOnlyHint: true },",
        "  parameters: Type.Object({}),",
        "  execute: async () => ({ content: [], details: { ok: true } }),",
        "});",
        "```",
      ].join("\n"),
    );
    expect(checkReadmeCode(root, [file])).toEqual({ compiled: 1, skipped: 0, errors: [] });
  }, 120_000);

  it("covers the root README, every package README and docs/", () => {
    const files = markdownFiles(root);
    expect(files).toContain("README.md");
    for (const pkg of fs.readdirSync(path.join(root, "packages")))
      expect(files).toContain(path.join("packages", pkg, "README.md"));
    expect(files).toContain(path.join("docs", "tools-edit.md"));
  });

  it("walks docs/ folders (the site's guides) but not the generated reference or dot folders", () => {
    const dir = temps.tree(
      "tackle-docs-walk-",
      Object.fromEntries(
        [
          "README.md",
          "docs/index.md",
          "docs/guides/adapter.md",
          "docs/reference/x.md",
          "docs/.vitepress/y.md",
        ].map((page) => [page, "# page\n"]),
      ),
    );
    expect(markdownFiles(dir)).toEqual(["README.md", "docs/guides/adapter.md", "docs/index.md"]);
  });
});
