// The MCP guide's client against this repository's `tackle mcp` (a real child process on stdio).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuide } from "./run-guide.js";

describe("serve the tools over MCP", () => {
  let folder: string;
  let home: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "tackle-guide-mcp-"));
    home = await mkdtemp(join(tmpdir(), "tackle-guide-home-"));
    await writeFile(join(folder, "notes.md"), "TODO: ship the docs\n");
  });
  afterAll(async () => {
    for (const dir of [folder, home]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the read-only tools, calls grep, and gets a failed read as a result", async () => {
    // The MCP client starts the server with a minimal environment (HOME, PATH, ...): a HOME of
    // its own keeps the server's default audit file out of the real home directory.
    const { stdout } = await runGuide("mcp-client", { args: [folder], env: { HOME: home } });
    expect(stdout).toContain("tools: read, grep, find, ls");
    expect(stdout).toContain("notes.md:1: TODO: ship the docs");
    expect(stdout).toContain("read a missing file: isError=true");
    // The server recorded both calls in its default audit file, under that HOME.
    const audit = await readFile(join(home, ".local", "state", "tackle", "audit.jsonl"), "utf8");
    const tools = audit
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; tool?: string })
      .filter((event) => event.kind === "intent")
      .map((event) => event.tool);
    expect(tools).toEqual(["grep", "read"]);
  });
});
