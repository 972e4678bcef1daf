// The MCP guide's client against this repository's `tackle mcp` (a real child process on stdio).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuide } from "./run-guide.js";

describe("serve the tools over MCP", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "tackle-guide-mcp-"));
    await writeFile(join(folder, "notes.md"), "TODO: ship the docs\n");
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("lists the read-only tools, calls grep, and gets a failed read as a result", async () => {
    const { stdout } = await runGuide("mcp-client", { args: [folder] });
    expect(stdout).toContain("tools: read, grep, find, ls");
    expect(stdout).toContain("notes.md:1: TODO: ship the docs");
    expect(stdout).toContain("read a missing file: isError=true");
  });
});
