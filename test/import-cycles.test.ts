import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { findImportCycles, findRelativeImports } from "../scripts/import-cycles.mjs";
import { tempDirs } from "./temp-tree.js";

const packagesDir = path.resolve(import.meta.dirname, "..", "packages");
const temps = tempDirs();

describe("import cycles inside a package (scripts/import-cycles.mjs)", () => {
  it("no package's sources import each other in a circle, types included", () => {
    const found: Record<string, string[][]> = {};
    for (const pkg of fs.readdirSync(packagesDir)) {
      const src = path.join(packagesDir, pkg, "src");
      if (!fs.existsSync(src)) continue;
      const cycles = findImportCycles(src);
      if (cycles.length > 0) found[pkg] = cycles;
    }
    expect(found).toEqual({});
  });

  it("reads static, type-only, dynamic, re-export and side-effect imports; ignores packages", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'const c = await import("./c.js");',
      'export * from "./d/index.js";',
      'export type { E } from "./e.js";',
      'import "./f.js";',
      'import { g } from "@tackle/tools";',
      'import { h } from "node:fs";',
    ].join("\n");
    expect(findRelativeImports(text).sort()).toEqual([
      "../b.js",
      "./a.js",
      "./c.js",
      "./d/index.js",
      "./e.js",
      "./f.js",
    ]);
  });

  it("finds a circle through type-only imports and across folders, and nothing in a chain", () => {
    const src = temps.tree("tackle-cycles-", {
      "plan.ts": 'import type { Outcome } from "./parts/messages.js";\nexport const plan = 1;',
      "parts/messages.ts": 'import type { Plan } from "../plan.js";\nexport type Outcome = 1;',
      "chain/a.ts": 'import { b } from "./b.js";',
      "chain/b.ts": 'import { c } from "./c/index.js";',
      "chain/c/index.ts": "export const c = 1;",
      "self.ts": 'export * from "./self.js";',
    });
    expect(findImportCycles(src)).toEqual([["parts/messages.ts", "plan.ts"], ["self.ts"]]);
  });
});
