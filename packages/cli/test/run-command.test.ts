import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXAMPLES, tackle, tempDir } from "./helpers.js";

let workspace: { dir: string; cleanup: () => void };
beforeEach(() => {
  workspace = tempDir();
  fs.cpSync(path.join(EXAMPLES, "demo", "workspace"), workspace.dir, { recursive: true });
});
afterEach(() => workspace.cleanup());

const script = path.join(EXAMPLES, "demo", "script.json");

describe("tackle run", () => {
  it("runs the demo: grep, read, edit, then the test passes under bash", async () => {
    const result = await tackle(["run", "--script", script, "--cwd", workspace.dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const steps = [...result.stdout.matchAll(/^→ (\w+)/gm)].map((m) => m[1]);
    expect(steps).toEqual(["grep", "read", "edit", "bash"]);
    expect(result.stdout).toMatch(/← bash ok \(\d+ ms\)/);
    expect(result.stdout).toContain("greet: 1 test passed");
    const fixed = fs.readFileSync(path.join(workspace.dir, "src", "greet.mjs"), "utf8");
    expect(fixed).toContain("return `Hello, $" + "{who}!`;");
  });

  it("--json streams one event per line", async () => {
    const result = await tackle(["run", "--script", script, "--cwd", workspace.dir, "--json"]);
    expect(result.code).toBe(0);
    const types = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    expect(types[0]).toBe("agent_start");
    expect(types.at(-1)).toBe("agent_end");
    expect(types.filter((t) => t === "tool_execution_end")).toHaveLength(4);
  });

  it("exits 1 when the script runs out before the model stops", async () => {
    const short = path.join(workspace.dir, "short.json");
    fs.writeFileSync(
      short,
      JSON.stringify({ prompt: "go", replies: [{ toolCalls: [{ name: "ls", arguments: {} }] }] }),
    );
    const result = await tackle(["run", "--script", short, "--cwd", workspace.dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ran out/);
  });

  it("exits 2 for a missing or malformed script", async () => {
    const missing = await tackle(["run", "--script", path.join(workspace.dir, "none.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Script not found");
    const bad = path.join(workspace.dir, "bad.json");
    fs.writeFileSync(bad, '{"prompt": "x", "replies": [{}]}');
    const malformed = await tackle(["run", "--script", bad]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('reply 1 has neither "text" nor "toolCalls"');
    const noFlag = await tackle(["run"]);
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain("--script FILE");
  });
});
