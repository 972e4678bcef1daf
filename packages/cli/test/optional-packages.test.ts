// A provider package installed in the directory tackle runs in is found, though the CLI is
// installed elsewhere (`npm install -g`, npx): the "Run: npm install @ai-sdk/<name>" that the
// missing-package error asks for must then work.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOptional } from "../src/import-adapter.js";
import { UsageError } from "../src/usage-error.js";
import { EXIT, tackle } from "./helpers.js";

/** A provider package: `createFakeprov()(id)` is a specification-v2 model that streams one text. */
const PROVIDER = `
const parts = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "hello from fakeprov" },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: "stop", usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } },
];
export function createFakeprov() {
  return (modelId) => ({
    specificationVersion: "v2",
    provider: "fakeprov",
    modelId,
    supportedUrls: {},
    async doGenerate() {
      throw new Error("not used");
    },
    async doStream() {
      return { stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
}
`;

describe("optional packages in the working directory", () => {
  let project: string;
  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-cli-project-"));
    const pkg = path.join(project, "node_modules", "@ai-sdk", "fakeprov");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "@ai-sdk/fakeprov", version: "1.0.0", type: "module", main: "index.js" }),
    );
    fs.writeFileSync(path.join(pkg, "index.js"), PROVIDER);
  });
  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it("are imported from there when the CLI's own folder lacks them", async () => {
    const module = await importOptional<{ createFakeprov: unknown }>(
      "@ai-sdk/fakeprov",
      "--model fakeprov:...",
      project,
    );
    expect(typeof module.createFakeprov).toBe("function");
    await expect(importOptional("@ai-sdk/fakeprov", "--model fakeprov:...", os.tmpdir())).rejects.toThrow(
      new UsageError(
        "--model fakeprov:... needs @ai-sdk/fakeprov, which is not installed. Run: npm install @ai-sdk/fakeprov",
      ),
    );
  });

  it("tackle run --model uses a provider installed where it runs", async () => {
    const result = await tackle(["run", "--model", "fakeprov:m1", "say hello", "--read-only"], {
      cwd: project,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain("hello from fakeprov");
  });
});
