import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_ID_VARIABLE } from "../src/shell/env.js";
import { escapeHuntScript, huntEscapedProcesses } from "../src/shell/escape.js";
import { alive, endPid } from "./shell-helpers.js";

const started: number[] = [];
afterAll(() => {
  for (const pid of started) endPid(pid);
});

function startMarked(runId: string, script: string): number {
  // detached + unref: its own session, not a child the adapter knows about, like a setsid escape.
  const child = spawn("sh", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, [RUN_ID_VARIABLE]: runId },
  });
  child.unref();
  started.push(child.pid as number);
  return child.pid as number;
}

describe("escape hunt by environment marker", () => {
  it("finds processes carrying the run marker, ends them (TERM, then KILL) and confirms", async () => {
    const runId = "0123456789abcdef0123456789abcdef";
    const polite = startMarked(runId, "exec sleep 100");
    const stubborn = startMarked(runId, "trap '' TERM; while :; do sleep 1; done");
    const other = startMarked("ffffffffffffffffffffffffffffffff", "exec sleep 100");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const result = await huntEscapedProcesses(createLocalOperations(), runId, { cwd: "/tmp", graceMs: 300 });
    expect(result.supported).toBe(true);
    expect(result.found).toEqual(expect.arrayContaining([polite, stubborn]));
    expect(result.found).not.toContain(other);
    expect(result.remaining).toEqual([]);
    expect(alive(polite)).toBe(false);
    expect(alive(stubborn)).toBe(false);
    expect(alive(other)).toBe(true);
  });

  it("reports nothing found when no process carries the marker", async () => {
    const result = await huntEscapedProcesses(createLocalOperations(), "abcdefabcdefabcdefabcdefabcdef00", {
      cwd: "/tmp",
      graceMs: 100,
    });
    expect(result).toEqual({ supported: true, found: [], remaining: [] });
  });

  it("works with busybox grep too (minimal containers): the marker is found in any environ entry", async () => {
    const busybox = ["/bin/busybox", "/usr/bin/busybox"].find((path) => existsSync(path));
    expect(busybox, "busybox is installed by scripts/ensure-system.sh").toBeDefined();
    const bin = mkdtempSync(join(tmpdir(), "tackle-busybox-grep-"));
    try {
      symlinkSync(busybox as string, join(bin, "grep"));
      const local = createLocalOperations();
      // Same environment, but `grep` resolves to busybox first.
      const withBusyboxGrep: Pick<Operations, "exec" | "platform"> = {
        platform: local.platform,
        exec: (command, options) =>
          local.exec(command, { ...options, env: { ...options.env, PATH: `${bin}:${process.env.PATH}` } }),
      };
      const runId = "fedcba9876543210fedcba9876543210";
      // The marker is not the first entry of the environ: busybox grep without -z stops at the first NUL.
      const escaped = startMarked(runId, "exec sleep 100");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const result = await huntEscapedProcesses(withBusyboxGrep, runId, { cwd: "/tmp", graceMs: 300 });
      expect(result.found).toContain(escaped);
      expect(alive(escaped)).toBe(false);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("refuses a run id that is not hex (it is embedded in a shell script)", () => {
    expect(() => escapeHuntScript("x'; rm -rf /; '", 100)).toThrow();
  });
});
