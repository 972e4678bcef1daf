import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { ExecOptions } from "@tackle/operations";
import { numbers } from "@tackle/operations/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SshOperations } from "../src/index.js";
import { type ExecHost, execStreamed, startExecHost } from "./support/output-copiers.js";
import { killIfRunning, untilExists } from "./support/processes.js";
import { isAlive, type TestSshServer } from "./support/ssh-server.mjs";

/**
 * `exec` with `outputPath` and streamed chunks: the remote tees copy both streams into the file
 * and back to the host, and may still be copying when the command has exited. The call must wait
 * for them, not for a pause in the output. Twice: with `setsid` on the host (the tees get their
 * own session) and without it (they stay in the command's group, ignoring SIGTERM, and the kill
 * script leaves them alone).
 */
for (const withSetsid of [true, false]) {
  describe(`exec with outputPath, streaming (tee), ${withSetsid ? "with" : "without"} setsid`, () => {
    let host: ExecHost;
    let server: TestSshServer;
    let ops: SshOperations;

    beforeAll(async () => {
      host = await startExecHost(withSetsid);
      ({ server, ops } = host);
    });

    afterAll(async () => {
      await host?.stop();
    });

    const teed = (command: string, outputPath: string, options: Partial<ExecOptions> = {}) =>
      execStreamed(ops, command, server.dir, outputPath, options);

    it("a tee still copying after the command exited finishes: the host and the file get every byte", async () => {
      // The output file is a FIFO whose only reader reads nothing until the group's stop after the
      // command's exit (its SIGTERM): the tees stay blocked, silent, past the idle grace, with the
      // command's last ~30 KB still to copy. seq 1 18000 (96,894 bytes) fits the pipes and the
      // tee's buffer, so the command itself exits.
      const fifo = `${server.dir}/tee-blocked.fifo`;
      const copy = `${server.dir}/tee-blocked.copy`;
      await promisify(execFile)("mkfifo", [fifo]);
      const { result, stdout } = await teed(
        `( exec 3<"$FIFO"; trap 'cat <&3 >"$COPY"; exit 0' TERM; sleep 600 & wait ) >/dev/null 2>&1 </dev/null &
      seq 1 18000`,
        fifo,
        { env: { FIFO: fifo, COPY: copy } },
      );
      const output = numbers(18_000);
      expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: output.length });
      expect(stdout).toBe(output);
      expect(await readFile(copy, "utf8")).toBe(output);
    });

    it("a cancelled command's tees are not stopped with it: what it printed before still arrives whole", async () => {
      // The same blocked FIFO; the command then waits, and is cancelled once it printed everything
      // (the done flag): the stop's SIGTERM to its group lets the reader drain the FIFO.
      const fifo = `${server.dir}/tee-cancel.fifo`;
      const copy = `${server.dir}/tee-cancel.copy`;
      const done = `${server.dir}/tee-cancel.done`;
      await promisify(execFile)("mkfifo", [fifo]);
      const controller = new AbortController();
      const running = teed(
        `( exec 3<"$FIFO"; trap 'cat <&3 >"$COPY"; exit 0' TERM; sleep 600 & wait ) >/dev/null 2>&1 </dev/null &
      seq 1 18000; touch "$DONE"; sleep 600`,
        fifo,
        { env: { FIFO: fifo, COPY: copy, DONE: done }, signal: controller.signal },
      );
      await untilExists(done, 20_000);
      controller.abort();
      const { result, stdout } = await running;
      const output = numbers(18_000);
      expect(result.status).toBe("cancelled");
      expect(result.cleanup.confirmed).toBe(true);
      expect(stdout).toBe(output);
      expect(await readFile(copy, "utf8")).toBe(output);
    });

    it("a background child holding the tees' pipes is ended by the sweep, then the call completes", async () => {
      const file = `${server.dir}/tee-holder.log`;
      const { result, stdout } = await teed("sleep 600 & echo $!; echo done", file);
      expect(result.status).toBe("completed");
      expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      const [child, done] = stdout.split("\n");
      expect(done).toBe("done");
      expect(await isAlive(Number(child))).toBe(false);
      expect(await readFile(file, "utf8")).toBe(stdout);
    });

    it("a writer out of the sweep's reach (no marker, own session) cannot hold the call", async () => {
      const file = `${server.dir}/tee-unreachable.log`;
      // `env -i` finds setsid on its default path, whatever PATH this host's sessions have.
      const { result, stdout } = await teed("env -i setsid sleep 600 & echo $!", file, { killGraceMs: 200 });
      const escaped = Number(stdout.trim());
      try {
        expect(result.status).toBe("completed");
        expect(await readFile(file, "utf8")).toBe(stdout);
        // The tees (in their own session, or in the command's group as copiers the kill script
        // leaves alone) outlive the sweep: the wait for them is bounded, then they are ended.
        expect(result.cleanup.note).toContain(`the output copies to ${file} were still open`);
      } finally {
        killIfRunning(escaped);
      }
    });
  });
}
