import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tackle, tempDir } from "./helpers.js";

let workspace: { dir: string; cleanup: () => void };
beforeEach(() => {
  workspace = tempDir();
  fs.mkdirSync(path.join(workspace.dir, "src"));
  fs.writeFileSync(path.join(workspace.dir, "src", "app.ts"), "export const answer = 41;\n");
  fs.writeFileSync(path.join(workspace.dir, "notes.txt"), "one\ntwo\nthree\n");
});
afterEach(() => workspace.cleanup());

describe("tackle tool", () => {
  it("prints what the model would see and exits 0", async () => {
    const result = await tackle(["tool", "read", '{"path":"notes.txt"}', "--cwd", workspace.dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1.*one/);
    expect(result.stdout).toMatch(/3.*three/);
  });

  it("--json prints the whole outcome", async () => {
    const result = await tackle(["tool", "ls", '{"path":"."}', "--cwd", workspace.dir, "--json"]);
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout);
    expect(outcome.isError).toBe(false);
    expect(outcome.content[0].text).toContain("src/");
    expect(outcome.details).toBeTypeOf("object");
  });

  it("edits a real file", async () => {
    const args = JSON.stringify({ path: "src/app.ts", edits: [{ oldText: "41", newText: "42" }] });
    const result = await tackle(["tool", "edit", args, "--cwd", workspace.dir]);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(workspace.dir, "src", "app.ts"), "utf8")).toBe(
      "export const answer = 42;\n",
    );
  });

  it("exits 1 with the model-facing message when the tool reports an error", async () => {
    const result = await tackle(["tool", "read", '{"path":"nope.txt"}', "--cwd", workspace.dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("nope.txt");
  });

  it("exits 2 for an unknown tool and lists the tools", async () => {
    const result = await tackle(["tool", "cat", "{}"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown tool "cat"');
    expect(result.stderr).toContain("read, write, edit");
  });

  it("exits 2 for invalid JSON and shows how to quote it", async () => {
    const result = await tackle(["tool", "read", "{path: x}", "--cwd", workspace.dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not valid JSON");
    expect(result.stderr).toContain(`tackle tool read '{"path":"."}'`);
  });

  it("exits 2 for arguments the tool cannot accept, naming the field", async () => {
    const result = await tackle([
      "tool",
      "read",
      '{"path":"notes.txt","limit":"many"}',
      "--cwd",
      workspace.dir,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("limit");
  });

  it("exits 2 for a bad environment URL", async () => {
    for (const env of ["ftp://host/x", "ssh://hostonly/x", "not a url", "docker://"]) {
      const result = await tackle(["tool", "ls", "{}", "--env", env]);
      expect(result.code, env).toBe(2);
      expect(result.stderr, env).toMatch(/ssh:\/\/user@host|docker:\/\/container/);
    }
  });

  it("exits 2 for an unknown flag and for a missing tool name", async () => {
    const flag = await tackle(["tool", "ls", "{}", "--colour"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--colour");
    const missing = await tackle(["tool"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Name a tool");
  });

  it("has help for every command, with examples", async () => {
    for (const args of [["--help"], ["tool", "--help"], ["mcp", "--help"], ["run", "--help"]]) {
      const result = await tackle(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout, args.join(" ")).toMatch(/Usage|tackle (tool|mcp|run)/);
    }
    const none = await tackle([]);
    expect(none.code).toBe(2);
    const unknown = await tackle(["serve"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "serve"');
  });
});
