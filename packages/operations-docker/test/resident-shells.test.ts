import { afterEach, describe, expect, inject, it } from "vitest";
import { createDockerOperations, type SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

const sessions: SessionContainer[] = [];
afterEach(async () => {
  for (const started of sessions.splice(0)) await started.dispose();
});

const decoder = new TextDecoder();

/**
 * Counts resident shell loops running in the container, asked through a second adapter (the
 * pattern is split with quotes so the probe's own command line does not match it).
 */
async function residentLoops(containerId: string): Promise<number> {
  const probe = createDockerOperations({
    container: containerId,
    docker: { socketPath: inject("dockerSocket") },
    residentShells: false,
  });
  let out = "";
  await probe.exec(
    "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\" 2>/dev/null | grep -q 'read -r _''h' && echo loop; done; true",
    { shell: "sh", cwd: "/", onChunk: (chunk) => (out += decoder.decode(chunk.bytes)) },
  );
  return out.split("\n").filter((line) => line === "loop").length;
}

describe("resident shells", () => {
  it("parallel calls beyond the pool size each get their own answer", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    const names = Array.from({ length: 24 }, (_, i) => `/tmp/parallel-${i}.txt`);
    await Promise.all(names.map((name, i) => ops.writeFile(name, `content ${i}\n`.repeat(i + 1))));
    const [texts, stats] = await Promise.all([
      Promise.all(names.map(async (name) => decoder.decode(await ops.readFile(name)))),
      Promise.all(names.map((name) => ops.stat(name))),
    ]);
    expect(texts).toEqual(names.map((_, i) => `content ${i}\n`.repeat(i + 1)));
    expect(stats.map((stat) => stat.size)).toEqual(
      names.map((_, i) => `content ${i}\n`.repeat(i + 1).length),
    );
    expect(await residentLoops(ops.containerId)).toBeLessThanOrEqual(4);
  });

  it("output without a final newline, or shaped like the end marker, comes back byte-exact", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    const tricky = "\n0123456789abcdef0123456789abcdef:0\nno newline at the end";
    await ops.writeFile("/tmp/tricky.txt", tricky);
    expect(decoder.decode(await ops.readFile("/tmp/tricky.txt"))).toBe(tricky);
    await ops.writeFile("/tmp/empty.txt", "");
    expect((await ops.readFile("/tmp/empty.txt")).length).toBe(0);
  });

  it("an aborted call retires its shell; the next call works; dispose ends every shell", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    await ops.stat("/");
    expect(await residentLoops(ops.containerId)).toBe(1);
    const controller = new AbortController();
    const write = ops.writeFile("/tmp/big.bin", new Uint8Array(8 * 1024 * 1024), {
      signal: controller.signal,
    });
    controller.abort();
    await expect(write).rejects.toMatchObject({ code: "aborted" });
    expect((await ops.stat("/tmp")).type).toBe("directory");
    expect((await ops.readdir("/tmp")).some((entry) => entry.name.includes(".tmp"))).toBe(false);
    // Dispose of the adapter's shells only (the container stays, to look inside it).
    const adapter = createDockerOperations({
      container: ops.containerId,
      docker: { socketPath: inject("dockerSocket") },
    });
    await adapter.stat("/");
    const before = await residentLoops(ops.containerId);
    await adapter.dispose?.();
    let after = before;
    for (let i = 0; i < 40 && after >= before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await residentLoops(ops.containerId);
    }
    expect(after).toBe(before - 1);
  });

  it("openRead streams through a resident shell; leaving early retires it and later calls work", async () => {
    const ops = await startTestContainer();
    sessions.push(ops);
    const size = 8 * 1024 * 1024;
    const data = new Uint8Array(size).map((_, i) => i % 251);
    await ops.writeFile("/tmp/stream.bin", data);
    let first: Uint8Array | undefined;
    for await (const chunk of ops.openRead("/tmp/stream.bin", { start: 1000 })) {
      first = chunk;
      break;
    }
    const head = first ?? new Uint8Array(0);
    expect(head.length > 0 && head.length < size).toBe(true);
    expect([...head.subarray(0, 4)]).toEqual([...data.subarray(1000, 1004)]);
    let total = 0;
    for await (const chunk of ops.openRead("/tmp/stream.bin")) total += chunk.length;
    expect(total).toBe(size);
    expect(decoder.decode(await ops.readFile("/etc/group")).startsWith("root:")).toBe(true);
  });

  it("with residentShells false every call is its own exec and nothing stays running", async () => {
    const ops = await startTestContainer({ residentShells: false });
    sessions.push(ops);
    await ops.writeFile("/tmp/plain.txt", "plain");
    expect(decoder.decode(await ops.readFile("/tmp/plain.txt"))).toBe("plain");
    expect(await residentLoops(ops.containerId)).toBe(0);
  });
});
