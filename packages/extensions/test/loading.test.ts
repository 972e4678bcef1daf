import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExtensionRunner } from "../src/runner.js";
import { createTestContext } from "./support/context.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-load-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function newRunner() {
  return new ExtensionRunner({ context: () => createTestContext(dir), cwd: dir });
}

/** A TypeScript extension with type-only syntax and a real import: only a TS-aware loader runs it. */
function tsExtension(greeting: string): string {
  return `
import { Type } from "@sinclair/typebox";

interface Greeting { text: string; loud?: boolean }
type Api = { registerTool(definition: unknown): void };
const greeting: Greeting = { text: ${JSON.stringify(greeting)} };

export default {
  name: "greeter",
  setup(api: Api): void {
    api.registerTool({
      name: "greet",
      label: "Greet",
      description: "Greets someone.",
      annotations: { readOnlyHint: true },
      parameters: Type.Object({ name: Type.String() }),
      async execute(_id: string, params: { name: string }) {
        return { content: [{ type: "text", text: \`\${greeting.text}, \${params.name}\` }], details: {} };
      },
    });
  },
} satisfies { name: string; setup(api: Api): void };
`;
}

describe("ExtensionRunner loading", () => {
  it("loads a TypeScript extension from disk with no build step, and reload reads it afresh", async () => {
    // The extension's imports resolve from its own directory, as in a real project.
    await symlink(path.resolve("node_modules"), path.join(dir, "node_modules"));
    const file = path.join(dir, "greeter.ts");
    await writeFile(file, tsExtension("Hello"));
    const runner = newRunner();
    expect(await runner.load(["./greeter.ts"])).toEqual({ loaded: ["greeter"], errors: [] });
    const greet = () => invokeTool(runner.tools().find((t) => t.name === "greet")!, { name: "Ada" });
    expect((await greet()).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    await writeFile(file, tsExtension("Goodbye"));
    expect(await runner.reload()).toEqual({ loaded: ["greeter"], errors: [] });
    expect((await greet()).content).toEqual([{ type: "text", text: "Goodbye, Ada" }]);
  });

  it("loads a JavaScript file exporting a setup function, named after the file", async () => {
    await writeFile(
      path.join(dir, "audit-log.mjs"),
      "export default function (api) { api.registerCommand('audit', { description: 'Shows the audit log', run() {} }); }\n",
    );
    const runner = newRunner();
    expect((await runner.load([path.join(dir, "audit-log.mjs")])).loaded).toEqual(["audit-log"]);
    expect(runner.commands()).toEqual([
      { name: "audit", description: "Shows the audit log", extension: "audit-log" },
    ]);
  });

  it("loads an extension package by name from the runner's cwd", async () => {
    const pkg = path.join(dir, "node_modules", "tackle-ext-hello");
    await mkdir(pkg, { recursive: true });
    await writeFile(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "tackle-ext-hello", type: "module", exports: { ".": "./index.js" } }),
    );
    await writeFile(
      path.join(pkg, "index.js"),
      "export default { name: 'hello-pkg', setup(api) { api.on('turn_start', () => {}); } };\n",
    );
    const runner = newRunner();
    expect(await runner.load(["tackle-ext-hello"])).toEqual({ loaded: ["hello-pkg"], errors: [] });
  });

  it("collects load errors instead of throwing, and keeps loading the rest", async () => {
    await writeFile(path.join(dir, "broken.ts"), "export default { name: 'broken', setup( {\n");
    await writeFile(path.join(dir, "not-extension.js"), "export default 42;\n");
    const runner = newRunner();
    const result = await runner.load([
      "./missing.ts",
      "./broken.ts",
      "./not-extension.js",
      "no-such-package-for-tackle",
      {
        name: "half-done",
        setup(api) {
          api.registerCommand("half", { description: "never registered", run() {} });
          throw new Error("setup failed midway");
        },
      },
      { name: "fine", setup() {} },
      { name: "fine", setup() {} },
    ]);
    expect(result.loaded).toEqual(["fine"]);
    const messages = result.errors.map((e) => e.message);
    expect(messages[0]).toBe(
      `./missing.ts (load): Extension file not found: ${path.join(dir, "missing.ts")}`,
    );
    expect(messages[1]).toContain("./broken.ts (load):");
    expect(messages[2]).toBe(
      "./not-extension.js (load): ./not-extension.js does not export an extension: export default defineExtension({ name, setup(api) { ... } }).",
    );
    expect(messages[3]).toContain("no-such-package-for-tackle (load):");
    expect(messages[4]).toBe("half-done (load): setup failed midway");
    expect(messages[5]).toBe(
      "fine (load): An extension named fine is already loaded; give this one another name.",
    );
    expect(result.errors).toHaveLength(6);
    // A failed setup leaves nothing behind.
    expect(runner.commands()).toEqual([]);
    expect(runner.extensions).toEqual(["fine"]);
  });
});
