import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT, expectUsageError, tackle, tempDir } from "./helpers.js";

// --sandbox for tackle tool, run and mcp (one set of environment flags): the shell tools' commands
// run in the OS sandbox, the audit says so, and contradicting flags are usage errors.

const supported = process.platform === "linux" && fs.existsSync("/usr/bin/bwrap");

let workspace: { dir: string; cleanup: () => void };
beforeEach(() => {
  workspace = tempDir();
});
afterEach(() => workspace.cleanup());

describe("--sandbox flags", () => {
  it("contradictions and bad values are usage errors", async () => {
    expectUsageError(await tackle(["tool", "bash", '{"command":"true"}', "--sandbox", "--no-sandbox"]));
    expectUsageError(await tackle(["tool", "bash", '{"command":"true"}', "--sandbox-network", "maybe"]));
    expectUsageError(await tackle(["run", "--script", "x.json", "--sandbox-allow", "a b"]));
    const both = await tackle(["mcp", "--sandbox-network", "on", "--sandbox-allow", "example.com"]);
    expectUsageError(both);
    expect(both.stderr).toContain("drop --sandbox-network");
  });

  it.runIf(supported)(
    "tackle tool bash --sandbox runs the command sandboxed and the audit records how",
    async () => {
      const audit = path.join(workspace.dir, "..", `${path.basename(workspace.dir)}-audit.jsonl`);
      try {
        const args = JSON.stringify({
          command: "echo pid=$$; echo x > /etc/tackle-cli-sandbox; echo ok > in-ws.txt",
        });
        const result = await tackle([
          "tool",
          "bash",
          args,
          "--cwd",
          workspace.dir,
          "--sandbox",
          "--json",
          "--audit",
          audit,
        ]);
        const outcome = JSON.parse(result.stdout);
        expect(outcome.content[0].text).toContain("pid=2");
        expect(outcome.content[0].text).toContain("Read-only file system");
        expect(outcome.details.run.sandbox).toMatchObject({ mechanism: "bubblewrap", network: "off" });
        expect(fs.existsSync("/etc/tackle-cli-sandbox")).toBe(false);
        expect(fs.readFileSync(path.join(workspace.dir, "in-ws.txt"), "utf8")).toBe("ok\n");
        const spawn = fs
          .readFileSync(audit, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line))
          .filter((event) => event.kind === "spawn" && event.sandbox?.mechanism === "bubblewrap");
        expect(spawn.length).toBeGreaterThan(0);
        expect(spawn[0].sandbox.writable).toContain(fs.realpathSync(workspace.dir));
      } finally {
        fs.rmSync(audit, { force: true });
      }
    },
  );

  it.runIf(supported)("--no-sandbox and no flag run without it", async () => {
    for (const flags of [["--no-sandbox"], []]) {
      const result = await tackle([
        "tool",
        "bash",
        '{"command":"true"}',
        "--cwd",
        workspace.dir,
        "--json",
        "--audit",
        "off",
        ...flags,
      ]);
      expect(result.code).toBe(EXIT.ok);
      expect(JSON.parse(result.stdout).details.run.sandbox).toBeUndefined();
    }
  });

  it.runIf(supported)("tackle run --sandbox-allow runs the script's bash calls in the sandbox", async () => {
    const script = path.join(workspace.dir, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        prompt: "run it",
        replies: [
          { toolCalls: [{ name: "bash", arguments: { command: "echo $HTTPS_PROXY; echo $$" } }] },
          { text: "done" },
        ],
      }),
    );
    const result = await tackle([
      "run",
      "--script",
      script,
      "--cwd",
      workspace.dir,
      "--json",
      "--audit",
      "off",
      "--sandbox-allow",
      "registry.npmjs.org",
    ]);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(result.stdout).toContain("http://127.0.0.1:3128");
  });
});
