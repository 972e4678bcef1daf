import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { artifactPathIn, EXIT, tackle, tempDir } from "./helpers.js";

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
    expect(result.stderr).toContain("The arguments for read are not valid JSON");
    expect(result.stderr).not.toMatch(/\S {2}\S/);
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
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("limit");
    expect(result.stderr).toContain("tackle tool read --help");
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

  it("reads the JSON arguments from stdin with - or --input -, and from a file with --input FILE", async () => {
    const edit = JSON.stringify({ path: "src/app.ts", edits: [{ oldText: "41", newText: "42" }] });
    const dash = await tackle(["tool", "edit", "-", "--cwd", workspace.dir], { input: edit });
    expect(dash.stderr).toBe("");
    expect(dash.code).toBe(EXIT.ok);
    expect(fs.readFileSync(path.join(workspace.dir, "src", "app.ts"), "utf8")).toContain("42");
    const read = await tackle(["tool", "read", "--input", "-", "--cwd", workspace.dir], {
      input: '{"path":"notes.txt"}',
    });
    expect(read.code).toBe(EXIT.ok);
    expect(read.stdout).toContain("three");
    const file = path.join(workspace.dir, "args.json");
    fs.writeFileSync(file, '{"path":"notes.txt","offset":2}');
    const fromFile = await tackle(["tool", "read", "--input", file, "--cwd", workspace.dir]);
    expect(fromFile.code).toBe(EXIT.ok);
    expect(fromFile.stdout).not.toMatch(/1\s+one/);
    expect(fromFile.stdout).toMatch(/2\s+two/);
  });

  it("a large edit fits through stdin where a shell argument would not", async () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const args = JSON.stringify({ path: "big.txt", content: big });
    const result = await tackle(["tool", "write", "-", "--cwd", workspace.dir], { input: args });
    expect(result.code).toBe(EXIT.ok);
    expect(fs.statSync(path.join(workspace.dir, "big.txt")).size).toBe(big.length);
  });

  it("malformed JSON on stdin is a usage error that says where it came from", async () => {
    const result = await tackle(["tool", "read", "-", "--cwd", workspace.dir], { input: "{path:" });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("from stdin");
    const both = await tackle(["tool", "read", "{}", "--input", "-"], { input: "{}" });
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain("either");
  });

  it("a --cwd that does not exist is a usage error naming it, before any tool runs", async () => {
    const missing = path.join(workspace.dir, "no-such-dir");
    const result = await tackle(["tool", "ls", "{}", "--cwd", missing]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(missing);
    expect(result.stderr).toContain("no such directory");
    const relative = await tackle(["tool", "ls", "{}", "--cwd", "nope"], { cwd: workspace.dir });
    expect(relative.code).toBe(EXIT.usage);
    expect(relative.stderr).toContain(path.join(workspace.dir, "nope"));
    const file = await tackle(["tool", "ls", "{}", "--cwd", path.join(workspace.dir, "notes.txt")]);
    expect(file.code).toBe(EXIT.usage);
    expect(file.stderr).toContain("not a directory");
  });

  it("a short bash output leaves no artifact file behind", async () => {
    const result = await tackle([
      "tool",
      "bash",
      JSON.stringify({ command: "echo short" }),
      "--cwd",
      workspace.dir,
      "--json",
    ]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toBe("");
    const artifact = artifactPathIn(result.stdout);
    expect(fs.existsSync(artifact)).toBe(false);
    expect(fs.existsSync(path.dirname(artifact))).toBe(false);
  });

  it("a long bash output keeps its artifact and says where it is and for how long", async () => {
    const command = "seq 1 5000";
    const result = await tackle(["tool", "bash", JSON.stringify({ command }), "--cwd", workspace.dir]);
    expect(result.code).toBe(EXIT.ok);
    const artifact = artifactPathFromNotice(result.stderr);
    try {
      expect(result.stdout).toContain(`Full output: ${artifact}`);
      expect(result.stderr).toContain(`kept at ${artifact}`);
      expect(result.stderr).toMatch(/for 24 h/);
      expect(fs.readFileSync(artifact, "utf8").split("\n")).toContain("5000");
    } finally {
      fs.rmSync(path.dirname(artifact), { recursive: true, force: true });
    }
  });
});

/** The path in "kept at PATH" of the CLI's notice about a kept artifact. */
function artifactPathFromNotice(stderr: string): string {
  const match = /kept at (\S+)/.exec(stderr);
  if (!match?.[1]) throw new Error(`no artifact notice in: ${stderr}`);
  return match[1];
}
