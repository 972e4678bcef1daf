import { readdir, readFile } from "node:fs/promises";
import type { ExecOptions } from "@tackle/operations";
import { COPIER_CONTROL, keptUnder, numbers } from "@tackle/operations/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExecHost, execStreamed, startExecHost } from "./support/output-copiers.js";
import { untilExists } from "./support/processes.js";
import { isAlive } from "./support/ssh-server.mjs";

/** Small enough for the FIFOs to hold all of the output while its copiers are stopped. */
const OUTPUT = numbers(8000);
const LIMIT = 16 * 1024;

/**
 * `exec` with `outputLimitBytes`: the capper copies the output into the file (head, then tail
 * pieces) and may still be copying when the command's processes are gone. It must be waited for,
 * never killed by the stop or the sweep; the wait is bounded. Twice: with `setsid` on the host
 * (the copiers get their own session) and without it (they stay in the command's group, and the
 * kill script tells them apart by their copy marker).
 *
 * The commands stop the capper (or the tees) with SIGSTOP, as a loaded host would leave it
 * unscheduled; a process that left the command's group continues it when the sweep after the
 * exit sends it SIGTERM, which comes after the group's TERM and KILL.
 */
for (const withSetsid of [true, false]) {
  describe(`exec with an output limit, ${withSetsid ? "with" : "without"} setsid`, () => {
    let host: ExecHost;

    beforeAll(async () => {
      host = await startExecHost(withSetsid);
    });

    afterAll(async () => {
      await host?.stop();
    });

    const run = (command: string, outputPath: string, options: Partial<ExecOptions> = {}) =>
      execStreamed(host.ops, `${COPIER_CONTROL}\n${command}`, host.server.dir, outputPath, {
        outputLimitBytes: LIMIT,
        env: { OUT: outputPath, SETSID: "/usr/bin/setsid" },
        ...options,
      });

    /** Files the capper or the wrapper left beside `outputPath` (tail pieces, FIFO). */
    const leftovers = async (outputPath: string) => {
      const name = outputPath.slice(outputPath.lastIndexOf("/") + 1);
      return (await readdir(host.server.dir)).filter((entry) => entry.startsWith(`${name}.tackle-`));
    };

    it("a capper still copying after the command exited finishes: head, marker and tail all arrive", async () => {
      const file = `${host.server.dir}/capper-file.log`;
      const { result } = await run(`release_on_term $(freeze 1 capper "$OUT"); seq 1 8000`, file, {
        streamChunks: false,
      });
      expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: OUTPUT.length });
      expect(result.outputCut?.droppedBytes).toBe(OUTPUT.length - LIMIT);
      expect(await readFile(file, "utf8")).toBe(keptUnder(OUTPUT, LIMIT));
      expect(await leftovers(file)).toEqual([]);
    });

    it("streaming too: the host gets every byte, the file head, marker and tail", async () => {
      const file = `${host.server.dir}/capper-tee.log`;
      const { result, stdout } = await run(`release_on_term $(freeze 1 capper "$OUT"); seq 1 8000`, file);
      expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: OUTPUT.length });
      expect(stdout).toBe(OUTPUT);
      expect(await readFile(file, "utf8")).toBe(keptUnder(OUTPUT, LIMIT));
    });

    it("a cancelled command's capper is not stopped with it: what it printed still arrives", async () => {
      const file = `${host.server.dir}/capper-cancel.log`;
      const done = `${host.server.dir}/capper-cancel.done`;
      const controller = new AbortController();
      const running = run(
        `release_on_term $(freeze 1 capper "$OUT"); seq 1 8000; touch "$DONE"; sleep 600`,
        file,
        {
          streamChunks: false,
          signal: controller.signal,
          env: { OUT: file, DONE: done, SETSID: "/usr/bin/setsid" },
        },
      );
      await untilExists(done, 20_000);
      controller.abort();
      const { result } = await running;
      expect(result.status).toBe("cancelled");
      expect(result.cleanup.confirmed).toBe(true);
      expect(await readFile(file, "utf8")).toBe(keptUnder(OUTPUT, LIMIT));
      expect(await leftovers(file)).toEqual([]);
    });

    it("a leftover ignoring SIGTERM gets SIGKILL after the grace; the copiers are spared and finish", async () => {
      const file = `${host.server.dir}/capper-leftover.log`;
      const { result, stdout } = await run(
        `bash -c 'trap "" TERM; exec sleep 600' & echo $!; seq 1 8000`,
        file,
        {
          killGraceMs: 200,
        },
      );
      const [leftover = ""] = stdout.split("\n", 1);
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
      expect(await isAlive(Number(leftover))).toBe(false);
      expect(stdout).toBe(`${leftover}\n${OUTPUT}`);
      expect(await readFile(file, "utf8")).toBe(keptUnder(stdout, LIMIT));
    });

    it("a capper that never finishes cannot hold the call, is ended, and is no leftover of the command", async () => {
      const file = `${host.server.dir}/capper-stuck.log`;
      const pids = `${host.server.dir}/capper-stuck.pids`;
      const { result } = await run(`freeze 1 capper "$OUT" >"$PIDS"; seq 1 8000`, file, {
        streamChunks: false,
        env: { OUT: file, PIDS: pids },
      });
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      // Nothing of the command's was left: nothing was signalled, and the result does not say so.
      expect(result.cleanup).toMatchObject({ termSent: false, killSent: false, confirmed: true });
      expect(result.cleanup.note).toBe(
        `the output copies to ${file} were still open 2000 ms after the command's processes ended (a process out of reach holds them, or they are stuck) and were ended: later output is missing`,
      );
      for (const pid of (await readFile(pids, "utf8")).trim().split(" "))
        expect(await isAlive(Number(pid))).toBe(false);
      // What the capper had copied (nothing, when it was stopped before its first write), and no
      // tail pieces beside it.
      const kept = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return "";
        throw error;
      });
      expect(OUTPUT.startsWith(kept)).toBe(true);
      expect(await leftovers(file)).toEqual([]);
    });

    it("tees that never finish are no leftovers of the command either", async () => {
      const file = `${host.server.dir}/tees-stuck.log`;
      const pids = `${host.server.dir}/tees-stuck.pids`;
      const { result, stdout } = await run(`freeze 2 tee "$OUT" >"$PIDS"; echo hi`, file, {
        outputLimitBytes: undefined,
        env: { OUT: file, PIDS: pids },
      });
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      expect(result.cleanup).toMatchObject({ termSent: false, killSent: false, confirmed: true });
      expect(result.cleanup.note).toContain(`the output copies to ${file} were still open`);
      expect(stdout).toBe("");
      for (const pid of (await readFile(pids, "utf8")).trim().split(" "))
        expect(await isAlive(Number(pid))).toBe(false);
    });
  });
}
