import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { ALLOWED_IMPORTS, checkLayers, findTackleImports } from "../scripts/layers.mjs";
import { tempDirs } from "./temp-tree.js";

const packagesDir = path.resolve(import.meta.dirname, "..", "packages");
const temps = tempDirs();
const fakeRepo = (files: Record<string, string>) => temps.tree("tackle-layers-", files);

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

  it("puts the Kubernetes adapter at the adapters' layer: it imports operations only, no other adapter", () => {
    expect(ALLOWED_IMPORTS["operations-kubernetes"]).toEqual(ALLOWED_IMPORTS["operations-docker"]);
    const repo = fakeRepo({
      "operations-kubernetes/src/ok.ts": 'import { OperationError } from "@tackle/operations";',
      "operations-kubernetes/src/bad.ts":
        'import { createDockerOperations } from "@tackle/operations-docker";',
      "operations-docker/src/bad.ts":
        'import type { KubernetesOperations } from "@tackle/operations-kubernetes";',
    });
    const found = checkLayers(repo).map((v: { from: string; imports: string }) => `${v.from}->${v.imports}`);
    expect(found.sort()).toEqual([
      "operations-docker->operations-kubernetes",
      "operations-kubernetes->operations-docker",
    ]);
  });

  it("lets tools import the local adapter from its /local entry only", () => {
    const repo = fakeRepo({
      "tools/src/local.ts": 'import { createLocalOperations } from "@tackle/operations-local";',
      "tools/src/context/create.ts": 'import { createLocalOperations } from "@tackle/operations-local";',
    });
    const found = checkLayers(repo).map((v: { file: string }) => path.relative(repo, v.file));
    expect(found).toEqual([path.join("tools", "src", "context", "create.ts")]);
  });

  it("puts the tree-sitter runtime at the bottom and the shell policy on it, below the tools", () => {
    expect(ALLOWED_IMPORTS["tree-sitter"]).toEqual([]);
    expect(ALLOWED_IMPORTS["shell-policy"]).toEqual(["tree-sitter"]);
    const repo = fakeRepo({
      "shell-policy/src/ok.ts": 'import { loadGrammar } from "@tackle/tree-sitter";',
      "shell-policy/src/bad.ts": 'import type { ToolError } from "@tackle/agent-core";',
      "shell-policy/src/worse.ts": 'import { createTools } from "@tackle/tools";',
      "tree-sitter/src/bad.ts": 'import { evaluateCommandPolicy } from "@tackle/shell-policy";',
    });
    const found = checkLayers(repo).map((v: { from: string; imports: string }) => `${v.from}->${v.imports}`);
    expect(found.sort()).toEqual([
      "shell-policy->agent-core",
      "shell-policy->tools",
      "tree-sitter->shell-policy",
    ]);
  });

  it("lets tools import the shell policy from its loader only", () => {
    const repo = fakeRepo({
      "tools/src/shell/policy-loader.ts": 'const p = await import("@tackle/shell-policy");',
      "tools/src/shell/tool.ts": 'import { evaluateCommandPolicy } from "@tackle/shell-policy";',
    });
    const found = checkLayers(repo).map((v: { file: string }) => path.relative(repo, v.file));
    expect(found).toEqual([path.join("tools", "src", "shell", "tool.ts")]);
  });
});
