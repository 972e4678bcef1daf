import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "./temp-tree.js";

const root = path.resolve(import.meta.dirname, "..");
const temps = tempDirs();

/** A copy of the script in a fake repository, so the real checkout's build output is untouched. */
function fakeRepo(files: Record<string, string>): string {
  const dir = temps.tree("tackle-clean-dist-", files);
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.copyFileSync(path.join(root, "scripts", "clean-dist.mjs"), path.join(dir, "scripts", "clean-dist.mjs"));
  return dir;
}

const exists = (dir: string, file: string) => fs.existsSync(path.join(dir, file));

describe("scripts/clean-dist.mjs", () => {
  it("--workspace removes every package's dist/ and wasm/ (what a turbo cache hit would not), nothing else", () => {
    const dir = fakeRepo({
      "packages/a/src/index.ts": "export {};\n",
      "packages/a/dist/index.js": "export {};\n",
      "packages/a/dist/chunks/chunk-STALE.js": "// from an earlier build\n",
      "packages/b/wasm/grammar.wasm": "",
      "packages/b/package.json": "{}\n",
      "dist/keep.txt": "not a package's\n",
    });
    execFileSync(process.execPath, [path.join(dir, "scripts", "clean-dist.mjs"), "--workspace"], {
      cwd: dir,
    });
    expect(exists(dir, "packages/a/dist")).toBe(false);
    expect(exists(dir, "packages/b/wasm")).toBe(false);
    expect(exists(dir, "packages/a/src/index.ts")).toBe(true);
    expect(exists(dir, "packages/b/package.json")).toBe(true);
    expect(exists(dir, "dist/keep.txt")).toBe(true);
  });

  it("without --workspace removes the dist/ of the package it runs in", () => {
    const dir = fakeRepo({ "packages/a/dist/old.js": "", "packages/b/dist/other.js": "" });
    execFileSync(process.execPath, [path.join(dir, "scripts", "clean-dist.mjs")], {
      cwd: path.join(dir, "packages", "a"),
    });
    expect(exists(dir, "packages/a/dist")).toBe(false);
    expect(exists(dir, "packages/b/dist/other.js")).toBe(true);
  });

  it("runs before turbo in the root build, so a cached build is restored into an empty dist/", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    expect(manifest.scripts.build).toMatch(/^node scripts\/clean-dist\.mjs --workspace && turbo run build\b/);
  });
});
