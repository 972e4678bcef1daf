/**
 * The spawn helper (`spawner: "helper"`): the commands are its children, their output is relayed
 * to this process. What it must keep from a direct spawn: every byte of output, in order, also
 * when many commands run at once or a command prints right before it exits; the same result when
 * a background child holds the pipe; no process left behind when the helper dies, when the
 * adapter is disposed, or when the host exits; and the host not kept alive by an idle helper.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type ExecOptions, type ExecResult, isOperationError, type Operations } from "@tackle/operations";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalOperations, SPAWN_HELPER_RSS_BYTES } from "../src/index.js";
import { HelperSpawner } from "../src/spawner/helper-spawner.js";
import { isAlive, tempDir } from "./helpers.js";

const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const made: Operations[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((ops) => ops.dispose?.()));
});

function helperOps(options: Parameters<typeof createLocalOperations>[0] = {}): Operations {
  const ops = createLocalOperations({ spawner: "helper", ...options });
  made.push(ops);
  return ops;
}

/** Pids of live spawn helpers whose parent is `parent` (the helper's command line names its program). */
function helperPids(parent = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== parent || !isAlive(Number(entry))) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("spawnHelperMain"))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Runs `command` with bash, collecting each stream's text. */
async function run(ops: Operations, command: string, options: Partial<ExecOptions> = {}) {
  const cwd = options.cwd ?? (await tempDir());
  let stdout = "";
  let stderr = "";
  const seqs: number[] = [];
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const result = await ops.exec(command, {
    shell: "bash",
    cwd,
    timeoutMs: 60_000,
    ...options,
    onChunk: (chunk) => {
      seqs.push(chunk.seq);
      const text = decoders[chunk.stream].decode(chunk.bytes, { stream: true });
      if (chunk.stream === "stdout") stdout += text;
      else stderr += text;
      options.onChunk?.(chunk);
    },
  });
  return { result, stdout, stderr, seqs };
}

/** `1\n2\n...count\n`, as `seq 1 count` prints it. */
function numbers(count: number, prefix = ""): string {
  let text = "";
  for (let i = 1; i <= count; i++) text += `${prefix}${i}\n`;
  return text;
}

describe("local exec through the spawn helper: output is never lost", () => {
  it("delivers 2,000,000 lines (about 15 MB) completely and in order, chunks numbered 0,1,2...", async () => {
    const { result, stdout, seqs } = await run(helperOps(), "seq 1 2000000");
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    expect(stdout.length).toBe(numbers(2_000_000).length);
    expect(stdout === numbers(2_000_000)).toBe(true);
    expect(seqs).toEqual(seqs.map((_, index) => index));
  });

  it("keeps every command's output when 40 run at once", async () => {
    const ops = helperOps();
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => run(ops, `seq 1 20000 | sed 's/^/${i}-/'; echo err-${i} >&2`)),
    );
    runs.forEach(({ result, stdout, stderr }, i) => {
      expect(result.status).toBe("completed");
      expect(stdout === numbers(20_000, `${i}-`)).toBe(true);
      expect(stderr).toBe(`err-${i}\n`);
    });
  });

  it("keeps output printed right before the exit, also before a kill by signal", async () => {
    const ops = helperOps();
    const big = await run(ops, "head -c 3000000 /dev/zero | tr '\\0' x; printf end; exit 7");
    expect(big.result).toMatchObject({ status: "failed", exitCode: 7, stdoutBytes: 3_000_003 });
    expect(big.stdout.endsWith("xend")).toBe(true);
    const killed = await run(ops, "printf last; kill -9 $$");
    expect(killed.result.signal).toBe("SIGKILL");
    expect(killed.stdout).toBe("last");
  });

  it("writes the output file itself on the fast path (outputPath, no chunks)", async () => {
    const cwd = await tempDir();
    const path = `${cwd}/out.log`;
    const result = await helperOps().exec("seq 1 100000; echo done >&2", {
      shell: "bash",
      cwd,
      outputPath: path,
      streamChunks: false,
    });
    expect(result.status).toBe("completed");
    expect(readFileSync(path, "utf8")).toBe(`${numbers(100_000)}done\n`);
  });

  it("returns as a direct spawn does when a background child keeps the pipe open", async () => {
    const results: { result: ExecResult; stdout: string }[] = [];
    for (const spawner of ["direct", "helper"] as const) {
      const ops = createLocalOperations({ spawner });
      made.push(ops);
      results.push(await run(ops, "sleep 30 & echo started $!"));
    }
    for (const { result, stdout } of results) {
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      expect(stdout).toMatch(/^started \d+\n$/);
      expect(isAlive(Number(stdout.split(" ")[1]))).toBe(false);
    }
  });
});

describe("local exec through the spawn helper: no process left behind", () => {
  it("a timeout ends the command's whole group, background children too", async () => {
    let background = 0;
    const { result } = await run(helperOps(), "sleep 60 & echo $!; sleep 60", {
      timeoutMs: 300,
      killGraceMs: 200,
      onChunk: (chunk) => {
        background = Number(new TextDecoder().decode(chunk.bytes).trim());
      },
    });
    expect(result).toMatchObject({ status: "timed-out", cleanup: { termSent: true, confirmed: true } });
    expect(background).toBeGreaterThan(0);
    expect(isAlive(background)).toBe(false);
  });

  it("a helper killed mid-command: the call rejects with connection_lost, its processes are gone, the next call starts a new helper", async () => {
    const ops = helperOps();
    let shell = 0;
    let background = 0;
    const call = run(ops, "sleep 60 & echo $!; sleep 60", {
      onSpawn: (spawn) => {
        shell = spawn.pid;
      },
      onChunk: (chunk) => {
        background = Number(new TextDecoder().decode(chunk.bytes).trim());
      },
    });
    await vi.waitFor(() => expect(background).toBeGreaterThan(0), { timeout: 10_000 });
    const [helper] = helperPids();
    expect(helper).toBeDefined();
    process.kill(helper as number, "SIGKILL");
    const error = await call.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isOperationError(error, "connection_lost")).toBe(true);
    expect(isAlive(shell)).toBe(false);
    expect(isAlive(background)).toBe(false);
    const again = await run(ops, "echo again");
    expect(again.stdout).toBe("again\n");
    expect(helperPids()).not.toContain(helper);
    expect(helperPids()).toHaveLength(1);
  });

  it("dispose ends a running command and stops the helper: its pid is gone", async () => {
    const ops = createLocalOperations({ spawner: "helper" });
    let shell = 0;
    const call = run(ops, "sleep 60", {
      onSpawn: (spawn) => {
        shell = spawn.pid;
      },
    });
    await vi.waitFor(() => expect(shell).toBeGreaterThan(0), { timeout: 10_000 });
    const [helper] = helperPids();
    expect(helper).toBeDefined();
    await ops.dispose?.();
    await call.catch(() => undefined);
    expect(isAlive(shell)).toBe(false);
    expect(isAlive(helper as number)).toBe(false);
  });

  it("an idle helper does not keep the host alive and exits with it; a host exiting mid-command leaves the command as a direct spawn does", async () => {
    expect(existsSync(dist), "build the package first (pnpm --filter @tackle/operations-local build)").toBe(
      true,
    );
    const cwd = await tempDir();
    // The child prints its helper's pid (0 without one), then either returns (idle: the process
    // must end by itself) or exits while a command runs.
    const probe = `
      const { createLocalOperations } = await import(process.argv[1]);
      const { readdirSync, readFileSync } = await import("node:fs");
      const helper = () => Number(readdirSync("/proc").filter((e) => /^\\d+$/.test(e)).find((e) => {
        try { return readFileSync("/proc/" + e + "/cmdline", "utf8").includes("spawnHelperMain")
          && readFileSync("/proc/" + e + "/stat", "utf8").split(") ")[1].split(" ")[1] === String(process.pid); }
        catch { return false; }
      }) ?? 0);
      const ops = createLocalOperations({ spawner: process.argv[4] });
      await ops.exec("true", { shell: "sh", cwd: process.argv[2] });
      if (process.argv[3] === "busy") {
        ops.exec("sleep 60", { shell: "sh", cwd: process.argv[2], onSpawn: (s) => {
          process.stdout.write(JSON.stringify({ helper: helper(), shell: s.pid }));
          process.exit(0);
        } });
      } else process.stdout.write(JSON.stringify({ helper: helper() }));
    `;
    const child = (mode: string, spawner: string) =>
      new Promise<{ helper: number; shell?: number }>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--input-type=module", "-e", probe, pathToFileURL(dist).href, cwd, mode, spawner],
          { timeout: 20_000 },
          (error, out) => (error ? reject(error) : resolve(JSON.parse(out))),
        );
      });
    const idle = await child("idle", "helper");
    expect(idle.helper).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isAlive(idle.helper)).toBe(false), { timeout: 10_000 });
    const shells: number[] = [];
    try {
      for (const spawner of ["direct", "helper"]) {
        const busy = await child("busy", spawner);
        shells.push(busy.shell as number);
        if (spawner === "helper") {
          expect(busy.helper).toBeGreaterThan(0);
          await vi.waitFor(() => expect(isAlive(busy.helper)).toBe(false), { timeout: 10_000 });
        }
        // Detached commands outlive their host either way (a background job is found later as
        // orphaned, by its marker).
        expect(isAlive(busy.shell as number)).toBe(true);
      }
    } finally {
      for (const shell of shells) process.kill(-shell, "SIGKILL");
    }
  });
});

describe("local exec through the spawn helper: the sandbox", () => {
  it("runs the command under bubblewrap (seccomp program and hidden files handed over by the helper)", async () => {
    const root = await realpath(await tempDir());
    const ops = helperOps({ sandbox: { writable: [root] } });
    const { result, stdout, stderr } = await run(ops, "echo inside; touch /usr/tackle-denied", { cwd: root });
    expect(result.sandbox?.mechanism).toBe("bubblewrap");
    expect(result.sandbox?.seccomp).toBe(true);
    expect(stdout).toBe("inside\n");
    expect(result.exitCode).not.toBe(0);
    expect(stderr).toMatch(/Read-only file system|Permission denied/);
  });
});

describe("the spawn helper's lifetime", () => {
  it("one helper serves every adapter of the process; the last dispose stops it", async () => {
    const first = createLocalOperations({ spawner: "helper" });
    const second = createLocalOperations({ spawner: "helper" });
    await run(first, "true");
    await run(second, "true");
    const helpers = helperPids();
    expect(helpers).toHaveLength(1);
    await first.dispose?.();
    expect(isAlive(helpers[0] as number)).toBe(true);
    expect((await run(second, "echo still")).stdout).toBe("still\n");
    await second.dispose?.();
    expect(isAlive(helpers[0] as number)).toBe(false);
  });

  it("the helper's environment is not empty (the marker scan would read it again for a quarter second at every command's end)", async () => {
    await run(helperOps(), "true");
    const [helper] = helperPids();
    expect(readFileSync(`/proc/${helper}/environ`).length).toBeGreaterThan(0);
  });

  it("a helper idle for its idle time stops by itself; the next spawn starts a new one", async () => {
    const spawner = new HelperSpawner(50);
    try {
      const child = await spawner.spawn({ file: "true", args: [], stdio: ["ignore", "ignore", "ignore"] });
      const pid = spawner.helperPid as number;
      expect(pid).toBeGreaterThan(0);
      await new Promise((resolve) => child.once("close", resolve));
      await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000 });
      expect(spawner.helperPid).toBeUndefined();
      await spawner.spawn({ file: "true", args: [], stdio: ["ignore", "ignore", "ignore"] });
      expect(spawner.helperPid).not.toBe(pid);
    } finally {
      await spawner.dispose();
    }
  });
});

describe("local exec: which spawner", () => {
  it('"auto" starts processes through the helper once this process holds SPAWN_HELPER_RSS_BYTES', async () => {
    const ops = createLocalOperations({ spawner: "auto" });
    made.push(ops);
    const held: Buffer[] = [];
    while (process.memoryUsage.rss() < SPAWN_HELPER_RSS_BYTES + 16 * 1024 * 1024) {
      held.push(Buffer.alloc(16 * 1024 * 1024, 1));
    }
    const { stdout } = await run(ops, "echo big");
    expect(stdout).toBe("big\n");
    expect(helperPids()).toHaveLength(1);
    held.length = 0;
  });

  it('"direct" never starts a helper', async () => {
    const ops = createLocalOperations({ spawner: "direct" });
    made.push(ops);
    const before = helperPids();
    await run(ops, "true");
    expect(helperPids()).toEqual(before);
  });
});
