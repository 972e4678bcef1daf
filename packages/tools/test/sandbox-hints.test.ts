import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSandboxTestEnv, type SandboxTestEnv } from "../src/testing/sandbox-env.js";
import { localSandboxOperations } from "./support/local-sandbox-operations.js";

// A sandboxed command that needed to leave the sandbox fails with a result that names what was
// blocked and the option to set, not a bare EACCES; and the policy does not ask first.

const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

describe.runIf(supported)("bash tool results in the sandbox", () => {
  let env: SandboxTestEnv;
  beforeAll(async () => {
    env = await createSandboxTestEnv(localSandboxOperations);
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it("a write outside the workspace runs without a question and names the writable paths and the option", async () => {
    // Outside the sandbox this command needs a yes (overwrite-outside-workspace), which a headless
    // context never gives: that it ran at all is the auto-allow.
    const { outcome, text, sandboxed } = await env.bash(`echo x > /etc/tackle-hint-${process.pid}`);
    expect(sandboxed).toBe("bubblewrap");
    expect(outcome.isError).toBe(true);
    expect(text).toContain("Read-only file system");
    expect(text).toContain(`The sandbox lets commands write only in ${env.workspace}`);
    expect(text).toContain("tackle --sandbox-write PATH");
    const unsandboxed = await env.bash(`echo x > /etc/tackle-hint-${process.pid}`, false);
    expect(unsandboxed.ran).toBe(false);
    expect(unsandboxed.text).toMatch(/approval/);
  });

  it("a read of a hidden secret names the deny list and --no-sandbox", async () => {
    const { text } = await env.bash("cat ~/.netrc");
    expect(text).toContain("Permission denied");
    expect(text).toContain("The sandbox hides secret locations");
    expect(text).toContain("--no-sandbox");
  });

  it("no network names the network option", async () => {
    const { text } = await env.bash("curl -sS --max-time 5 https://registry.npmjs.org/");
    expect(text).toContain("The sandbox has no network (network: off)");
    expect(text).toContain("tackle --sandbox-allow HOST");
  });

  it("a host outside the allow list is named exactly, from the proxy's own record", async () => {
    const { text } = await env.bash("curl -sS --max-time 5 https://example.invalid/", {
      network: { allow: ["registry.npmjs.org"] },
    });
    expect(text).toContain(
      "The sandbox refused network access to example.invalid:443 (not in its allow list)",
    );
  });

  it("the hint comes from typed blocks: a message redaction cuts from the output still gets it", async () => {
    // The only sign of the refused write is an error code inside a secret-looking value, which
    // the output's redaction replaces: the model never sees "EROFS", yet gets the hint, because
    // the block is read from the raw output into the report before any redaction.
    const token = "EROFS-3f9a8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f";
    const { outcome, text } = await env.bash(
      `touch /etc/tackle-hint-token-${process.pid} 2>/dev/null || { echo "api_token=${token}"; exit 1; }`,
    );
    expect(text).not.toContain("EROFS");
    expect(text).toContain("[REDACTED");
    expect(text).toContain(`The sandbox lets commands write only in ${env.workspace}`);
    const run = (outcome.details as { run?: { sandbox?: { blocked?: unknown[] } } }).run;
    expect(run?.sandbox?.blocked).toEqual([{ kind: "write", target: "Read-only file system" }]);
  });

  it("a command that succeeds gets no hint", async () => {
    const { outcome, text } = await env.bash("echo fine");
    expect(outcome.isError).toBe(false);
    expect(text).not.toContain("sandbox");
  });

  it("a background job runs in the sandbox too", async () => {
    const { outcome, text } = await env.bash("sleep 301.25", undefined, true);
    expect(outcome.isError, text).toBe(false);
    const pid = await findProcess("301.25");
    try {
      // NSpid lists the pid in each namespace: two entries mean a pid namespace of its own.
      const nspid = /NSpid:\s*([\d\s]+)/.exec(readStatus(pid))?.[1]?.trim().split(/\s+/) ?? [];
      expect(nspid.length).toBe(2);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });
});

function readStatus(pid: number): string {
  return readFileSync(`/proc/${pid}/status`, "utf8");
}

/** The pid of the `sleep <token>` process (not the sandbox or shell that name it in their arguments). */
function findProcess(token: string): Promise<number> {
  return vi.waitFor(
    () => {
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        try {
          if (readFileSync(`/proc/${name}/cmdline`, "utf8") === `sleep\0${token}\0`) return Number(name);
        } catch {
          // gone
        }
      }
      throw new Error(`no process with ${token}`);
    },
    { timeout: 10_000, interval: 50 },
  );
}
