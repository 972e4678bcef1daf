import type { OutputChunk } from "@tackle/operations";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDockerOperations, type SessionContainer } from "../src/index.js";
import { testEngine } from "./engine.js";
import { startTestContainer } from "./session.js";

const sessions: SessionContainer[] = [];
const session = async () => {
  const started = await startTestContainer();
  sessions.push(started);
  return started;
};
afterEach(async () => {
  for (const started of sessions.splice(0)) await started.dispose();
});

const decoder = new TextDecoder();

describe("faults on a real engine", () => {
  it("a container killed mid-command gives status unknown with a note, not a hang", async () => {
    const ops = await session();
    let killed: Promise<unknown> | undefined;
    const result = await ops.exec("echo started; sleep 60", {
      shell: "sh",
      cwd: "/",
      onChunk: () => {
        killed ??= testEngine().getContainer(ops.containerId).kill();
      },
    });
    await killed;
    expect(result.status).toBe("unknown");
    expect(result.exitCode).toBeUndefined();
    expect(result.cleanup.confirmed).toBe(false);
    expect(result.cleanup.note).toMatch(/stopped|stream/);
  });

  it("a stopped container rejects every call with container_not_running (code connection_lost)", async () => {
    const ops = await session();
    await testEngine().getContainer(ops.containerId).stop({ t: 0 });
    const failures = await Promise.allSettled([
      ops.stat("/"),
      ops.readFile("/etc/passwd"),
      ops.writeFile("/tmp/x", "x"),
      ops.exec("true", { shell: "sh", cwd: "/" }),
    ]);
    for (const failure of failures) {
      expect(failure.status).toBe("rejected");
      const reason = (failure as PromiseRejectedResult).reason as { code: string; reason: string };
      expect(reason.code).toBe("connection_lost");
      expect(reason.reason).toBe("container_not_running");
    }
  });

  it("a paused container fails calls with container_not_running instead of hanging", async () => {
    const ops = await session();
    await ops.stat("/");
    const container = testEngine().getContainer(ops.containerId);
    await container.pause();
    try {
      await expect(ops.stat("/")).rejects.toMatchObject({
        code: "connection_lost",
        reason: "container_not_running",
      });
      await expect(ops.exec("true", { shell: "sh", cwd: "/" })).rejects.toMatchObject({
        reason: "container_not_running",
      });
    } finally {
      await container.unpause();
    }
    expect((await ops.stat("/")).type).toBe("directory");
  });

  it("a removed container rejects with container_not_found (code not_found)", async () => {
    const ops = await session();
    await testEngine().getContainer(ops.containerId).remove({ force: true });
    await expect(ops.stat("/")).rejects.toMatchObject({ code: "not_found", reason: "container_not_found" });
    await expect(ops.exec("true", { shell: "sh", cwd: "/" })).rejects.toMatchObject({
      code: "not_found",
      reason: "container_not_found",
    });
  });

  it("a tree ignoring SIGTERM is killed on timeout: no process of it is left", async () => {
    const ops = await session();
    const chunks: OutputChunk[] = [];
    const result = await ops.exec("trap '' TERM; bash -c \"trap '' TERM; sleep 60\" & echo $!; sleep 60", {
      shell: "bash",
      cwd: "/",
      timeoutMs: 300,
      killGraceMs: 300,
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect(result.status).toBe("timed-out");
    expect(result.signal).toBe("SIGKILL");
    expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
    expect(result.cleanup.pid).toBeGreaterThan(0);
    const left = await ops.exec(
      `for s in /proc/[0-9]*/stat; do read -r l < "$s" || continue; r=\${l##*) }; set -- $r; [ "$3" = ${result.cleanup.pid} ] && [ "$1" != Z ] && echo alive; done; true`,
      { shell: "sh", cwd: "/" },
    );
    expect(left.status).toBe("completed");
    expect(left.stdoutBytes).toBe(0);
  });

  it("a process that left the group (setsid) is found by its marker and ended when the command ends", async () => {
    const ops = await session();
    let out = "";
    const result = await ops.exec(
      // The command ends only once the escapee has left the group and ignores TERM (the ready
      // file): otherwise the group reap could end it first and the sweep would have nothing to do.
      'r=/tmp/escape-ready-$$; (setsid sh -c \'trap "" TERM; touch "$1"; exec sleep 60\' sh "$r" >/dev/null 2>&1 </dev/null & echo $!); ' +
        'while [ ! -e "$r" ]; do sleep 0.01; done; rm -f "$r"; echo started',

      { shell: "sh", cwd: "/", killGraceMs: 200, onChunk: (chunk) => (out += decoder.decode(chunk.bytes)) },
    );
    expect(result.status).toBe("completed");
    // It ignored SIGTERM, so it took SIGKILL; both are reported, and that it is gone is confirmed.
    expect(result.cleanup).toMatchObject({
      escapesChecked: true,
      termSent: true,
      killSent: true,
      confirmed: true,
    });
    const escapedPid = Number(out.split("\n")[0]);
    expect(escapedPid).toBeGreaterThan(1);
    const probe = await ops.exec(
      `s=$(cat /proc/${escapedPid}/stat 2>/dev/null); r=\${s##*) }; set -- $r; [ -z "$s" ] || [ "$1" = Z ] && echo gone`,
      { shell: "sh", cwd: "/", onChunk: (chunk) => (out += decoder.decode(chunk.bytes)) },
    );
    expect(probe.exitCode).toBe(0);
    expect(out).toContain("gone");
    // A command that leaves nothing behind reports the sweep with nothing sent.
    const plain = await ops.exec("true", { shell: "sh", cwd: "/" });
    expect(plain.cleanup).toMatchObject({ escapesChecked: true, termSent: false, confirmed: true });
  });

  it("dispose() cancels a running command: status cancelled, confirmed, no process of its group left", async () => {
    const ops = await session();
    const adapter = createDockerOperations({
      container: ops.containerId,
      docker: { socketPath: inject("dockerSocket") },
    });
    let started: () => void = () => {};
    const seen = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running = adapter.exec("echo go; sleep 60 & sleep 60", {
      shell: "sh",
      cwd: "/",
      onChunk: () => started(),
    });
    await seen;
    await adapter.dispose?.();
    const result = await running;
    expect(result.status).toBe("cancelled");
    expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
    const left = await ops.exec(
      `for s in /proc/[0-9]*/stat; do read -r l < "$s" || continue; r=\${l##*) }; set -- $r; [ "$3" = ${result.cleanup.pid} ] && [ "$1" != Z ] && echo alive; done; true`,
      { shell: "sh", cwd: "/" },
    );
    expect(left.stdoutBytes).toBe(0);
  });

  it("a file rewritten while other execs read it is never seen torn (readFile, openRead, cat)", async () => {
    const ops = await session();
    const size = 512 * 1024;
    const a = new Uint8Array(size).fill(0x61);
    const b = new Uint8Array(size).fill(0x62);
    await ops.writeFile("/tmp/swap.bin", a);
    let writing = true;
    const writer = (async () => {
      for (let round = 0; round < 12; round++) await ops.writeFile("/tmp/swap.bin", round % 2 ? a : b);
      writing = false;
    })();
    const torn: string[] = [];
    const uniform = (bytes: Uint8Array) =>
      bytes.length === size && (bytes.every((byte) => byte === 0x61) || bytes.every((byte) => byte === 0x62));
    const readers = [
      (async () => {
        while (writing) if (!uniform(await ops.readFile("/tmp/swap.bin"))) torn.push("readFile");
      })(),
      (async () => {
        while (writing) {
          const parts: Uint8Array[] = [];
          for await (const part of ops.openRead("/tmp/swap.bin")) parts.push(part);
          if (!uniform(Buffer.concat(parts))) torn.push("openRead");
        }
      })(),
      (async () => {
        while (writing) {
          const parts: Uint8Array[] = [];
          await ops.exec("cat /tmp/swap.bin", {
            shell: "sh",
            cwd: "/",
            onChunk: (chunk) => parts.push(chunk.bytes),
          });
          if (!uniform(Buffer.concat(parts))) torn.push("cat");
        }
      })(),
    ];
    await Promise.all([writer, ...readers]);
    expect(torn).toEqual([]);
  }, 120_000);

  it("outputPath with streamChunks false streams nothing back and the file has it all", async () => {
    const ops = await session();
    const chunks: OutputChunk[] = [];
    const result = await ops.exec("echo one; echo two >&2; sleep 0.2 &", {
      shell: "sh",
      cwd: "/",
      outputPath: "/tmp/out.log",
      streamChunks: false,
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect(result.status).toBe("completed");
    expect(chunks).toEqual([]);
    const written = decoder.decode(await ops.readFile("/tmp/out.log"));
    expect(written.split("\n").sort()).toEqual(["", "one", "two"]);
    expect(result.stdoutBytes).toBe(written.length);
  });
});
