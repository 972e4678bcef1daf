import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { inspectPackageDir, lintTarball } from "../scripts/pack.mjs";
import { tempDirs } from "./temp-tree.js";

const root = path.resolve(import.meta.dirname, "..");

const temps = tempDirs();
const unpacked = (files: Record<string, string>) => temps.tree("tackle-unpacked-test-", files);

const map = (sources: string[]) => JSON.stringify({ version: 3, sources, mappings: "" });
const base = {
  "package.json": '{"name":"x","dependencies":{"y":"^1.0.0"}}',
  "README.md": "# x\n",
  LICENSE: "MIT\n",
};

describe("packed package contents", () => {
  it("accepts maps whose sources are shipped, and inline maps", () => {
    const dir = unpacked({
      ...base,
      "dist/a.js": "export {};\n//# sourceMappingURL=a.js.map\n",
      "dist/a.js.map": map(["../src/a.ts"]),
      "dist/a.d.ts": "export {};\n//# sourceMappingURL=a.d.ts.map\n",
      "dist/a.d.ts.map": map(["../src/a.ts"]),
      "dist/b.js": "export {};\n//# sourceMappingURL=data:application/json;base64,e30=\n",
      "src/a.ts": "export {};\n",
    });
    expect(inspectPackageDir(dir, { license: "MIT\n" })).toEqual([]);
  });

  it("accepts a map whose sources from other packages are embedded in it (a bundle)", () => {
    const bundleMap = JSON.stringify({
      version: 3,
      sources: ["../src/a.ts", "../node_modules/y/src/b.ts"],
      sourcesContent: [null, "export const b = 1;\n"],
      mappings: "",
    });
    const dir = unpacked({
      ...base,
      "dist/a.js": "export {};\n//# sourceMappingURL=a.js.map\n",
      "dist/a.js.map": bundleMap,
      "src/a.ts": "export {};\n",
    });
    expect(inspectPackageDir(dir, { license: "MIT\n" })).toEqual([]);
  });

  it("reports a map pointing at a file not shipped, and a comment naming a missing map", () => {
    const dir = unpacked({
      ...base,
      "dist/a.js": "export {};\n//# sourceMappingURL=a.js.map\n",
      "dist/a.js.map": map(["../src/a.ts"]),
      "dist/c.js": "export {};\n//# sourceMappingURL=c.js.map\n",
    });
    expect(inspectPackageDir(dir)).toEqual([
      "dist/a.js.map: points at src/a.ts, which is not in the package",
      "dist/c.js: names the source map dist/c.js.map, which is not in the package",
    ]);
  });

  it("reports a missing or different LICENSE, a missing README, workspace ranges and test files", () => {
    const dir = unpacked({
      "package.json": '{"name":"x","dependencies":{"y":"workspace:^"}}',
      "dist/a.test.js": "",
    });
    expect(inspectPackageDir(dir)).toEqual([
      "LICENSE is missing",
      "README.md is missing",
      "package.json still has workspace: ranges",
      "dist/a.test.js: a test file is shipped",
    ]);
    const other = unpacked({ ...base, LICENSE: "Apache\n" });
    expect(inspectPackageDir(other, { license: "MIT\n" })).toEqual([
      "LICENSE differs from the repository's LICENSE",
    ]);
  });
});

describe("packed package lints", () => {
  it("publint reports an export naming a missing file; are-the-types-wrong types that masquerade as CJS", async () => {
    const dir = unpacked({
      "package/package.json": JSON.stringify({
        name: "broken",
        version: "1.0.0",
        type: "module",
        exports: {
          ".": { types: "./dist/index.d.cts", import: "./dist/index.js" },
          "./extra": "./dist/extra.js",
        },
      }),
      "package/dist/index.js": "export const x = 1;\n",
      "package/dist/index.d.cts": "export declare const x: number;\n",
    });
    const tarball = path.join(dir, "broken-1.0.0.tgz");
    execFileSync("tar", ["-czf", tarball, "-C", dir, "package"]);
    const problems: string[] = await lintTarball(root, tarball);
    expect(problems.map((p) => p.split(":")[0])).toEqual(["publint", "attw"]);
  }, 120_000);
});
