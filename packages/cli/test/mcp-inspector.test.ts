// The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, a devDependency that runs
// offline) against the built `tackle mcp`, on the 2025 era (initialize) and on 2026-07-28.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, tempDir } from "./helpers.js";

const LAUNCHER = path.resolve(
  import.meta.dirname,
  "..",
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);

let workspace: { dir: string; cleanup: () => void };
let home: { dir: string; cleanup: () => void };

beforeEach(() => {
  workspace = tempDir();
  // The Inspector keeps a catalog and settings under the home directory: a temporary one.
  home = tempDir("tackle-inspector-home-");
  fs.writeFileSync(path.join(workspace.dir, "notes.md"), "TODO: ship\n");
});
afterEach(() => {
  workspace.cleanup();
  home.cleanup();
});

/** `inspector --cli --format json` with `args`, against `tackle mcp --cwd <workspace>`; its JSON answer. */
function inspect(
  era: string,
  args: string[],
): Promise<{ result?: Record<string, unknown>; error?: unknown }> {
  const audit = path.join(home.dir, "audit.jsonl");
  const server = [process.execPath, BIN, "mcp", "--cwd", workspace.dir, "--audit", audit];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [LAUNCHER, "--cli", "--format", "json", "-q", "--protocol-era", era, ...args, ...server],
      { env: { ...process.env, HOME: home.dir }, timeout: 60_000 },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`inspector: ${error?.message ?? ""}\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

describe.each(["legacy", "modern"])("MCP Inspector CLI, %s era", (era) => {
  it("lists the tools with their output schemas", async () => {
    const { result, error } = await inspect(era, ["--method", "tools/list"]);
    expect(error).toBeUndefined();
    const tools = result?.tools as { name: string; outputSchema?: { type: string } }[];
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "grep", "ls", "bash"]));
    expect(tools.find((tool) => tool.name === "grep")?.outputSchema?.type).toBe("object");
  });

  it("calls grep and gets its structured content", async () => {
    const { result, error } = await inspect(era, [
      "--method",
      "tools/call",
      "--tool-name",
      "grep",
      "--tool-args-json",
      '{"pattern":"TODO"}',
    ]);
    expect(error).toBeUndefined();
    expect(result?.isError).toBe(false);
    expect(result?.structuredContent).toMatchObject({ pattern: "TODO", matches: 1, files: 1 });
    expect(JSON.stringify(result?.content)).toContain("notes.md:1: TODO: ship");
    // A 2026-07-28 result names the server in its _meta; a 2025-era one does not.
    const serverInfo = (result?._meta as Record<string, { name?: string }> | undefined)?.[
      "io.modelcontextprotocol/serverInfo"
    ];
    expect(serverInfo?.name).toBe(era === "modern" ? "tackle" : undefined);
  });

  it("gets a failure as a result with its error code", async () => {
    const { result } = await inspect(era, [
      "--method",
      "tools/call",
      "--tool-name",
      "read",
      "--tool-args-json",
      '{"path":"absent.md"}',
    ]);
    expect(result?.isError).toBe(true);
    expect((result?._meta as Record<string, unknown> | undefined)?.["tackle/errorCode"]).toBe("not_found");
  });
});
