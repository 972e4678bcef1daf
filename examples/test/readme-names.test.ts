// Names the package READMEs (what npm shows) list, held to the code: the tools table names exactly
// the parameters each tool's schema has, and @tackle/operations names every error code. A
// parameter or code added or renamed in the code cannot leave the README behind.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { OPERATION_ERROR_CODES } from "@tackle/operations";
import { createAllTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { describe, expect, it } from "vitest";

const packages = join(resolve(import.meta.dirname, "..", ".."), "packages");
const readme = join(packages, "tools", "README.md");

/** `{ tool: [parameter, ...] }` from the rows of the README's "The tools" table. */
function tableOf(markdown: string): Record<string, string[]> {
  const section = markdown.slice(
    markdown.indexOf("## The tools"),
    markdown.indexOf("\n## ", markdown.indexOf("## The tools") + 1),
  );
  const rows: Record<string, string[]> = {};
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]?.startsWith("`")) continue;
    const names = [...(cells[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] ?? "");
    // Top-level names only: `edits: [{oldText, ...}]` names `edits`.
    const params = (cells[2] ?? "").replace(/\[[^\]]*\]/g, "").replace(/`/g, "");
    const parameters = [...params.matchAll(/(\w+)\??/g)].map((m) => m[1] ?? "").sort();
    for (const name of names) rows[name] = parameters;
  }
  return rows;
}

describe("the @tackle/tools README's table of tools", () => {
  it("lists every tool with exactly the parameters of its schema", async () => {
    const table = tableOf(await readFile(readme, "utf8"));
    const context = createLocalToolContext();
    try {
      const schemas = Object.fromEntries(
        Object.values(createAllTools({ context })).map((tool) => [
          tool.name,
          Object.keys((tool.parameters as { properties: object }).properties).sort(),
        ]),
      );
      expect(table).toEqual(schemas);
    } finally {
      await context.dispose();
    }
  });
});

describe("the @tackle/operations README", () => {
  it("names every OperationError code, and no other", async () => {
    const text = await readFile(join(packages, "operations", "README.md"), "utf8");
    const row = text.split("\n").find((line) => line.startsWith("| `OperationError`")) ?? "";
    // The list after "a stable `code`:", one backticked code per comma (notes in parentheses).
    const list = row.slice(row.indexOf("`code`:") + "`code`:".length);
    const named = [...list.matchAll(/(?:^|,)\s*`([a-z_]+)`/g)].map((m) => m[1]);
    expect(named).toEqual([...OPERATION_ERROR_CODES]);
  });
});
