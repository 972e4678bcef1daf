// The "use a real model" guide against a local server that speaks OpenAI's streaming wire format
// (no network, no key): the real @ai-sdk/openai client, the real loop, the real tools.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openaiReply, type ProviderServer, startProviderServer } from "@tackle/ai-sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuide } from "./run-guide.js";

describe("use a real model", () => {
  let server: ProviderServer;
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "tackle-guide-model-"));
    await writeFile(join(project, "notes.md"), "TODO: ship the docs\n");
    server = await startProviderServer([
      openaiReply({ calls: [{ id: "call_1", name: "grep", args: { pattern: "TODO" } }] }),
      openaiReply({ text: "One TODO, in notes.md: ship the docs." }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("runs the loop on an AI SDK model: the model's tool call runs, its answer ends the run", async () => {
    const { stdout } = await runGuide("real-model", {
      cwd: project,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key" },
    });
    expect(stdout).toContain('tool: grep {"pattern":"TODO"}');
    expect(stdout).toContain("answer: One TODO, in notes.md: ship the docs.");
    // The second request carried the grep result back to the model.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("notes.md:1: TODO: ship the docs");
    expect(server.remaining).toBe(0);
  });
});
