import { afterEach, describe, expect, it } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/**
 * The wrapper relays the command's output through FIFOs (and `tee -a` into `outputPath`). After
 * the command exits the relays may still be copying; they must be waited for, not cut off after a
 * fixed grace.
 */
const sessions: SessionContainer[] = [];
afterEach(async () => {
  for (const started of sessions.splice(0)) await started.dispose();
});

/** `seq 1 count` as the command prints it. */
const numbers = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");

describe("exec relays", () => {
  it("a relay still copying after the command exited finishes: the host and the file get every byte", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    // The output file is a FIFO whose only reader left the command's group (setsid) and reads
    // nothing until the wrapper's sweep for such processes sends it SIGTERM: the relays stay
    // blocked with the command's last ~30 KB still to copy. seq 1 18000 (96,894 bytes) fits the
    // FIFOs and the relay's buffer, so the command itself exits.
    await ops.writeFile(
      "/tmp/reader.sh",
      ['exec 3<"$FIFO"', `trap 'cat <&3 >"$COPY"; exit 0' TERM`, "sleep 600 & wait", ""].join("\n"),
    );
    const made = await ops.exec("mkfifo /tmp/out.fifo", { shell: "sh", cwd: "/" });
    expect(made.status).toBe("completed");
    let stdout = "";
    const decoder = new TextDecoder();
    const result = await ops.exec("setsid sh /tmp/reader.sh >/dev/null 2>&1 </dev/null & seq 1 18000", {
      shell: "sh",
      cwd: "/",
      outputPath: "/tmp/out.fifo",
      env: { FIFO: "/tmp/out.fifo", COPY: "/tmp/out.copy" },
      timeoutMs: 30_000,
      onChunk: (chunk) => {
        if (chunk.stream === "stdout") stdout += decoder.decode(chunk.bytes, { stream: true });
      },
    });
    const output = numbers(18_000);
    expect(result).toMatchObject({ status: "completed", exitCode: 0, stdoutBytes: output.length });
    // The reader was ended by the sweep, which the result reports.
    expect(result.cleanup).toMatchObject({ escapesChecked: true, termSent: true, confirmed: true });
    expect(stdout).toBe(output);
    expect(new TextDecoder().decode(await ops.readFile("/tmp/out.copy"))).toBe(output);
  });

  it("a writer out of the sweep's reach (no marker, own session) cannot hold the call", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    let output = "";
    const result = await ops.exec("env -i setsid sleep 600 & echo $!", {
      shell: "sh",
      cwd: "/",
      outputPath: "/tmp/unreachable.log",
      timeoutMs: 30_000,
      onChunk: (chunk) => {
        output += new TextDecoder().decode(chunk.bytes);
      },
    });
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    // Both streams: nothing but the command's output (the wrapper's own messages stay out).
    expect(output).toMatch(/^\d+\n$/);
    expect(new TextDecoder().decode(await ops.readFile("/tmp/unreachable.log"))).toBe(output);
    // The relays it held were ended at the end of their wait, which the result says.
    expect(result.cleanup.note).toContain("the output copies to /tmp/unreachable.log were still open");
    // Still running (nothing could find it): the container's disposal ends it, this ends it sooner.
    expect((await ops.exec(`kill ${Number(output.trim())}`, { shell: "sh", cwd: "/" })).status).toBe(
      "completed",
    );
  });
});
