// `tackle tool --json` as a script reads it: every outcome is one JSON object on stdout, and a
// misspelt argument is named with the field it most likely means.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, type RunResult, tackle, tempDir } from "./helpers.js";

let workspace: { dir: string; cleanup: () => void };
beforeEach(() => {
  workspace = tempDir();
  fs.writeFileSync(path.join(workspace.dir, "notes.txt"), "one\ntwo\n");
});
afterEach(() => workspace.cleanup());

/** The one JSON object on stdout (nothing on stderr), with the exit code. */
function onlyJson(result: RunResult): { code: number | null; outcome: Record<string, unknown> } {
  expect(result.stderr).toBe("");
  const outcome = JSON.parse(result.stdout) as Record<string, unknown>;
  expect(outcome).toBeTypeOf("object");
  return { code: result.code, outcome };
}

const textOf = (outcome: Record<string, unknown>) =>
  (outcome.content as { text: string }[]).map((part) => part.text).join("\n");

describe("tackle tool --json", () => {
  it.each([
    ["an unknown tool", ["tool", "cat", "{}"], "tool_not_found", /Unknown tool "cat"/],
    ["malformed JSON", ["tool", "grep", "{bad"], "invalid_json", /not valid JSON/],
    ["an unknown flag", ["tool", "grep", "{}", "--bogus"], "usage", /Unknown option '--bogus'/],
    ["a missing tool name", ["tool"], "usage", /Name a tool/],
    ["a bad --env URL", ["tool", "ls", "{}", "--env", "ftp://host/x"], "usage", /ssh:\/\/user@host/],
  ])("answers %s with one JSON object on stdout and exit 2", async (_what, args, code, text) => {
    const { code: exit, outcome } = onlyJson(await tackle([...args, "--json", "--cwd", workspace.dir]));
    expect(exit).toBe(EXIT.usage);
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe(code);
    expect(textOf(outcome)).toMatch(text);
  });

  it("answers arguments the tool refuses with the outcome on stdout and exit 2", async () => {
    const result = await tackle([
      "tool",
      "read",
      '{"path":"notes.txt","limit":"many"}',
      "--json",
      "--cwd",
      workspace.dir,
    ]);
    const { code, outcome } = onlyJson(result);
    expect(code).toBe(EXIT.usage);
    expect(outcome.errorCode).toBe("invalid_arguments");
  });

  it("answers a tool error with the outcome on stdout and exit 1", async () => {
    const result = await tackle(["tool", "read", '{"path":"nope.txt"}', "--json", "--cwd", workspace.dir]);
    const { code, outcome } = onlyJson(result);
    expect(code).toBe(EXIT.toolError);
    expect(outcome.errorCode).toBe("not_found");
  });
});

describe("tackle tool: a misspelt argument", () => {
  it("is named with the field it most likely means instead of being dropped", async () => {
    const result = await tackle(["tool", "grep", '{"patern":"x"}', "--cwd", workspace.dir]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("patern");
    expect(result.stderr).toContain("Did you mean `pattern`?");
  });

  it("is refused for an optional field too, so grep does not run without its glob", async () => {
    const args = '{"pattern":"one","glbo":"*.md"}';
    const { code, outcome } = onlyJson(
      await tackle(["tool", "grep", args, "--json", "--cwd", workspace.dir]),
    );
    expect(code).toBe(EXIT.usage);
    expect(textOf(outcome)).toContain("Did you mean `glob`?");
  });
});

describe("tackle tool --list", () => {
  it("says powershell is unavailable exactly where pwsh does not run", async () => {
    const hasPwsh = spawnSync("pwsh", ["-NoProfile", "-Command", "1"]).status === 0;
    const text = await tackle(["tool", "--list", "--cwd", workspace.dir]);
    expect(text.code).toBe(EXIT.ok);
    const line = text.stdout.split("\n").find((l) => l.trim().startsWith("powershell"));
    expect(line).toBeDefined();
    if (hasPwsh) expect(line).not.toContain("unavailable");
    else expect(line).toContain("unavailable here: no pwsh");
    const json = JSON.parse((await tackle(["tool", "--list", "--json", "--cwd", workspace.dir])).stdout);
    const powershell = json.find((tool: { name: string }) => tool.name === "powershell");
    expect(powershell.unavailable !== undefined).toBe(!hasPwsh);
    expect(json.find((tool: { name: string }) => tool.name === "bash").unavailable).toBeUndefined();
  });
});
