// The tools table of the @tackle/tools README (what npm shows) names exactly the parameters each
// tool's schema has: a parameter added or renamed in a tool cannot leave the table behind.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createAllTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { describe, expect, it } from "vitest";

const readme = join(resolve(import.meta.dirname, "..", ".."), "packages", "tools", "README.md");

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
