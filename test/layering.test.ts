import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { ALLOWED_IMPORTS, checkLayers, findTackleImports } from "../scripts/layers.mjs";

const packagesDir = path.resolve(import.meta.dirname, "..", "packages");
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fakeRepo(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-layers-"));
  temps.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe("package layering (docs/architecture.md)", () => {
  it("every package in packages/ has a layering rule", () => {
    const pkgs = fs
      .readdirSync(packagesDir)
      .filter((p) => fs.existsSync(path.join(packagesDir, p, "package.json")));
    expect(pkgs.sort()).toEqual(Object.keys(ALLOWED_IMPORTS).sort());
  });

  it("no package imports a higher or sibling layer", () => {
    expect(checkLayers(packagesDir)).toEqual([]);
  });

  it("finds static, dynamic, type-only and re-export imports", () => {
    const text = [
      'import { a } from "@tackle/tools";',
      'import type { B } from "@tackle/cli/sub";',
      'const c = await import("@tackle/extensions");',
      'export * from "@tackle/operations-ssh";',
      'import "@tackle/agent-core";',
    ].join("\n");
    expect(findTackleImports(text).sort()).toEqual([
      "agent-core",
      "cli",
      "extensions",
      "operations-ssh",
      "tools",
    ]);
  });

  it("reports an upward import and a sideways import", () => {
    const repo = fakeRepo({
      "agent-core/src/a.ts": 'import { x } from "@tackle/tools";',
      "operations-ssh/src/b.ts": 'import type { Y } from "@tackle/operations-local";',
      "tools/src/ok.ts": 'import { z } from "@tackle/extensions";',
    });
    const found = checkLayers(repo).map((v: { from: string; imports: string }) => `${v.from}->${v.imports}`);
    expect(found.sort()).toEqual(["agent-core->tools", "operations-ssh->operations-local"]);
  });

  it("lets tools import the local adapter from its /local entry only", () => {
    const repo = fakeRepo({
      "tools/src/local.ts": 'import { createLocalOperations } from "@tackle/operations-local";',
      "tools/src/context/create.ts": 'import { createLocalOperations } from "@tackle/operations-local";',
    });
    const found = checkLayers(repo).map((v: { file: string }) => path.relative(repo, v.file));
    expect(found).toEqual([path.join("tools", "src", "context", "create.ts")]);
  });
});
