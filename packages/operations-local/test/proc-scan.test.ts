import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { forEachLimited, SharedScan } from "../src/proc-scan.js";
import { isAlive, tempDir } from "./helpers.js";

describe("shared /proc scans", () => {
  it("requests made together share one scan", async () => {
    const batches: number[][] = [];
    const scan = new SharedScan<number, number>(async (requests) => {
      batches.push([...requests]);
      return requests.map((n) => n * 10);
    });
    const answers = await Promise.all([1, 2, 3].map((n) => scan.request(n)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("a request made while a scan runs is answered by a scan that starts after it", async () => {
    const started: number[][] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const scan = new SharedScan<string, string>(async (requests) => {
      started.push(requests.map((r) => r.length));
      if (started.length === 1) await firstHeld;
      return requests.map((r) => `${r}@${started.length}`);
    });
    const first = scan.request("a");
    await new Promise((resolve) => setImmediate(resolve));
    // The first scan is running: these two wait for the next one, together.
    const second = scan.request("bb");
    const third = scan.request("ccc");
    releaseFirst();
    expect(await Promise.all([first, second, third])).toEqual(["a@1", "bb@2", "ccc@2"]);
    expect(started).toEqual([[1], [2, 3]]);
  });

  it("a failed scan fails only its own requests", async () => {
    let calls = 0;
    const scan = new SharedScan<number, number>(async (requests) => {
      calls++;
      if (calls === 1) throw new Error("no /proc");
      return [...requests];
    });
    await expect(scan.request(1)).rejects.toThrow("no /proc");
    expect(await scan.request(2)).toBe(2);
  });

  it("forEachLimited never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachLimited([...Array(100).keys()], 7, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(n);
      running--;
    });
    expect(peak).toBe(7);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(100).keys()]);
  });
});

describe.runIf(process.platform === "linux")("many commands ending at once", () => {
  // Through the spawn helper too: the commands are its children then, not this process's.
  it.each(["direct", "helper"] as const)(
    "each finds and ends its own escaped process through the shared marker scan (%s spawner)",
    async (spawner) => {
      const ops = createLocalOperations({ spawner });
      const cwd = await tempDir();
      const COMMANDS = 24;
      const decoder = new TextDecoder();
      const results = await Promise.all(
        Array.from({ length: COMMANDS }, async () => {
          let stdout = "";
          // The inner sh exits at once: its sleep hangs off init, found only by the marker.
          const result = await ops.exec("sh -c 'setsid sleep 60 >/dev/null 2>&1 & echo $!'; sleep 0.2", {
            shell: "sh",
            cwd,
            onChunk: (chunk) => {
              if (chunk.stream === "stdout") stdout += decoder.decode(chunk.bytes);
            },
          });
          return { result, pid: Number(stdout.trim()) };
        }),
      );
      for (const { result, pid } of results) {
        expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
        expect(isAlive(pid)).toBe(false);
      }
      // Only the command's own processes: no other command's marker matched.
      expect(new Set(results.map((r) => r.pid)).size).toBe(COMMANDS);
      await ops.dispose?.();
    },
  );

  it("keeps the number of open files bounded while many commands end", async () => {
    const ops = createLocalOperations();
    const cwd = await tempDir();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, readdirSync("/proc/self/fd").length);
    }, 1);
    const before = readdirSync("/proc/self/fd").length;
    try {
      await Promise.all(Array.from({ length: 48 }, () => ops.exec("sleep 1.1", { shell: "sh", cwd })));
    } finally {
      clearInterval(sampler);
    }
    // Pipes of 48 running commands, plus one scan's reads: not one scan per command (48 x every pid).
    expect(peak - before).toBeLessThan(48 * 6 + 64);
  });
});
