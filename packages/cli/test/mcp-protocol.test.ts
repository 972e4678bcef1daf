// Protocol revisions `tackle mcp` negotiates with the SDK 2 client's modes and older offers.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, tackle, tempDir } from "./helpers.js";
import { closeClients, connectClient, textOf } from "./mcp-clients.js";

let workspace: { dir: string; cleanup: () => void };

beforeEach(() => {
  workspace = tempDir();
  fs.writeFileSync(path.join(workspace.dir, "hello.txt"), "hello\n");
});
afterEach(async () => {
  await closeClients();
  workspace.cleanup();
});

describe("tackle mcp protocol negotiation", () => {
  it("answers the SDK 2 client's default (initialize) with 2025-11-25", async () => {
    const client = await connectClient("sdk2-legacy", ["--cwd", workspace.dir]);
    expect(client.protocolVersion()).toBe("2025-11-25");
    expect(textOf(await client.callTool("read", { path: "hello.txt" }))).toContain("hello");
  });

  for (const version of ["2025-06-18", "2025-03-26"]) {
    it(`serves a client that offers only ${version}`, async () => {
      const client = await connectClient("sdk2-legacy", ["--cwd", workspace.dir], {
        supportedProtocolVersions: [version],
      });
      expect(client.protocolVersion()).toBe(version);
      const ls = await client.callTool("ls", { path: "." });
      expect(textOf(ls)).toContain("hello.txt");
      expect(ls.structuredContent).toMatchObject({ path: ".", shown: 1 });
    });
  }

  it("tackle mcp --help names the revisions it speaks", async () => {
    const help = await tackle(["mcp", "--help"]);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain(
      "revision 2026-07-28, or the 2025 revision of a client that opens with initialize",
    );
  });

  it("a client offering 2026-07-28 and an older revision gets 2026-07-28", async () => {
    const client = await connectClient("sdk2-modern", ["--cwd", workspace.dir], {
      supportedProtocolVersions: ["2026-07-28", "2025-11-25"],
    });
    expect(client.protocolVersion()).toBe("2026-07-28");
    expect(client.instructions()).toContain("Coding tools: read,");
  });
});
