import type { ExecOptions, ExecResult } from "@tackle/operations";
import { COPIER_CONTROL, keptUnder, numbers } from "@tackle/operations/conformance";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/**
 * `exec` with `outputLimitBytes`: the wrapper's capper copies the output into the file (head,
 * then tail pieces) and may still be copying when the command's processes and the relays are
 * gone. It must be waited for, not killed after a fixed delay; the wait is bounded.
 *
 * The commands stop the capper with SIGSTOP, as a loaded host would leave it unscheduled; a
 * process that left the command's group continues it when the wrapper's sweep for such processes
 * sends it SIGTERM.
 */
const sessions: SessionContainer[] = [];
afterEach(async () => {
  for (const started of sessions.splice(0)) await started.dispose();
});

/** Small enough for the FIFOs to hold all of the output while the capper is stopped. */
const OUTPUT = numbers(8000);
const LIMIT = 16 * 1024;
const decoder = new TextDecoder();

async function run(
  command: string,
  outputPath: string,
  options: Partial<ExecOptions> = {},
): Promise<{ ops: SessionContainer; result: ExecResult; stdout: string }> {
  const ops = await startTestContainer();
  sessions.push(ops);
  let stdout = "";
  const result = await ops.exec(`${COPIER_CONTROL}\n${command}`, {
    shell: "sh",
    cwd: "/tmp",
    outputPath,
    outputLimitBytes: LIMIT,
    timeoutMs: 30_000,
    env: { OUT: outputPath },
    onChunk: (chunk) => {
      if (chunk.stream === "stdout") stdout += decoder.decode(chunk.bytes, { stream: true });
    },
    ...options,
  });
  return { ops, result, stdout };
}

describe("exec with an output limit: the capper", () => {
  it("still copying after the command's processes are gone, finishes: head, marker and tail all arrive", async () => {
    const { ops, result } = await run(
      `release_on_term $(freeze 1 capper "$OUT"); seq 1 8000`,
      "/tmp/file.log",
      {
        streamChunks: false,
      },
    );
    expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: OUTPUT.length });
    expect(result.outputCut?.droppedBytes).toBe(OUTPUT.length - LIMIT);
    // The releaser was ended by the sweep; nothing was cut.
    expect(result.cleanup).toMatchObject({ escapesChecked: true, termSent: true, confirmed: true });
    expect(result.cleanup.note).not.toContain("still open");
    expect(decoder.decode(await ops.readFile("/tmp/file.log"))).toBe(keptUnder(OUTPUT, LIMIT));
  });

  it("streaming too: the host gets every byte, the file head, marker and tail", async () => {
    const { ops, result, stdout } = await run(
      `release_on_term $(freeze 1 capper "$OUT"); seq 1 8000`,
      "/tmp/tee.log",
    );
    expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: OUTPUT.length });
    expect(stdout).toBe(OUTPUT);
    expect(decoder.decode(await ops.readFile("/tmp/tee.log"))).toBe(keptUnder(OUTPUT, LIMIT));
  });

  it("of a cancelled command is not stopped with it: what the command printed still arrives", async () => {
    const controller = new AbortController();
    let received = 0;
    const { ops, result } = await run(
      `release_on_term $(freeze 1 capper "$OUT"); seq 1 8000; sleep 600`,
      "/tmp/cancel.log",
      {
        signal: controller.signal,
        // Cancelled once the relays delivered everything (the capper, stopped, has it still to copy).
        onChunk: (chunk) => {
          received += chunk.bytes.length;
          if (received === OUTPUT.length) controller.abort();
        },
      },
    );
    expect(result.status).toBe("cancelled");
    expect(result.cleanup.confirmed).toBe(true);
    expect(decoder.decode(await ops.readFile("/tmp/cancel.log"))).toBe(keptUnder(OUTPUT, LIMIT));
  });

  it("that never finishes cannot hold the call: it is ended, and the result says so", async () => {
    const { ops, result } = await run(
      `freeze 1 capper "$OUT" >/tmp/capper.pid; seq 1 8000`,
      "/tmp/stuck.log",
      {
        streamChunks: false,
      },
    );
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    expect(result.cleanup).toMatchObject({ termSent: false, confirmed: true });
    expect(result.cleanup.note).toBe(
      "the output copies to /tmp/stuck.log were still open 2000 ms after the command's processes ended (a process out of reach holds them, or they are stuck) and were ended: later output is missing",
    );
    // What the capper had copied (nothing, when it was stopped before its first write); it is gone.
    const kept = await ops.readFile("/tmp/stuck.log").catch((error: { code?: string }) => {
      if (error.code === "not_found") return new Uint8Array();
      throw error;
    });
    expect(OUTPUT.startsWith(decoder.decode(kept))).toBe(true);
    const pid = decoder.decode(await ops.readFile("/tmp/capper.pid")).trim();
    const check = await ops.exec(`kill -0 ${Number(pid)}`, { shell: "sh", cwd: "/" });
    expect(check.exitCode).not.toBe(0);
  });
});
