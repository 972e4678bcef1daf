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

/** A process started outside any exec, and the signal that ended it. */
interface Marked {
  pid: number;
  /** The signal that ended it (null for a plain exit). */
  ended: Promise<NodeJS.Signals | null>;
}

/**
 * Starts `script` carrying the run marker. Its environment is in place when spawn returns (the
 * exec has happened), so a hunt can find it at once; a script that must reach a point first
 * (a trap) prints a line there, and `ready` waits for it.
 */
function startMarked(runId: string, script: string): Marked & { ready: Promise<void> } {
  // detached + unref: its own session, not a child the adapter knows about, like a setsid escape.
  const child = spawn("sh", ["-c", script], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, [RUN_ID_VARIABLE]: runId },
  });
  child.unref();
  started.push(child.pid as number);
  const ended = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  const ready = new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return { pid: child.pid as number, ended, ready };
}

describe("escape hunt by environment marker", () => {
  it("finds processes carrying the run marker, ends them (TERM, then KILL) and confirms", async () => {
    const runId = "0123456789abcdef0123456789abcdef";
    const polite = startMarked(runId, "exec sleep 100");
    const stubborn = startMarked(runId, "trap '' TERM; echo trapped; while :; do sleep 1; done");
    const other = startMarked("ffffffffffffffffffffffffffffffff", "exec sleep 100");
    // Hunted once the trap is set: before it, SIGTERM alone would end it and the KILL go untested.
    await stubborn.ready;
    const result = await huntEscapedProcesses(createLocalOperations(), runId, { cwd: "/tmp", graceMs: 300 });
    expect(result.supported).toBe(true);
    expect(result.found).toEqual(expect.arrayContaining([polite.pid, stubborn.pid]));
    expect(result.found).not.toContain(other.pid);
    expect(result.remaining).toEqual([]);
    // The polite one ended on SIGTERM, the stubborn one only on the SIGKILL after the grace.
    expect(await polite.ended).toBe("SIGTERM");
    expect(await stubborn.ended).toBe("SIGKILL");
    expect(alive(other.pid)).toBe(true);
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
      const result = await huntEscapedProcesses(withBusyboxGrep, runId, { cwd: "/tmp", graceMs: 300 });
      expect(result.found).toContain(escaped.pid);
      expect(await escaped.ended).toBe("SIGTERM");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("refuses a run id that is not hex (it is embedded in a shell script)", () => {
    expect(() => escapeHuntScript("x'; rm -rf /; '", 100)).toThrow();
  });
});
