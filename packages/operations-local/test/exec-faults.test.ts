import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Operations, OutputChunk } from "@tackle/operations";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { isAlive, tempDir } from "./helpers.js";

const decoder = new TextDecoder();

/**
 * Runs a command in sh and returns the result with its stdout text. `abortWhen` aborts the run
 * as soon as the stdout so far satisfies it (e.g. once the pids to check were printed): a stop
 * tied to what the command did, never to a guess at how long it takes to get there.
 */
async function runOn(
  ops: Operations,
  command: string,
  options: { timeoutMs?: number; killGraceMs?: number; abortWhen?: (stdout: string) => boolean } = {},
) {
  const { abortWhen, ...execOptions } = options;
  const controller = new AbortController();
  const chunks: OutputChunk[] = [];
  const stdoutOf = () =>
    chunks
      .filter((chunk) => chunk.stream === "stdout")
      .map((chunk) => decoder.decode(chunk.bytes))
      .join("");
  const result = await ops.exec(command, {
    shell: "sh",
    cwd: await tempDir(),
    onChunk: (chunk) => {
      chunks.push(chunk);
      if (abortWhen?.(stdoutOf())) controller.abort();
    },
    ...(abortWhen ? { signal: controller.signal } : {}),
    ...execOptions,
  });
  return { result, stdout: stdoutOf() };
}

/** Pids printed one per line by a command. */
const pidsIn = (stdout: string): number[] =>
  stdout
    .split("\n")
    .filter((line) => /^\d+$/.test(line))
    .map(Number);

/** Pids on the complete lines so far (a chunk may end inside a number). */
const linesOut = (stdout: string): number[] => pidsIn(stdout.slice(0, stdout.lastIndexOf("\n") + 1));

// Every check twice: commands started in this process, and through the spawn helper (the
// commands are then its children; the tree walk and the marker scan must find them all the same).
describe.each(["direct", "helper"] as const)("spawner %s", (spawner) => {
  const ops = createLocalOperations({ spawner });
  const run = (command: string, options?: Parameters<typeof runOn>[2]) => runOn(ops, command, options);
  afterAll(() => ops.dispose?.());

  describe("local exec: process groups and trees", () => {
    it("reports the process group id and leaves no process of a timed-out tree", async () => {
      const { result, stdout } = await run("sleep 60 & echo $!; sh -c 'sleep 60 & echo $!; wait' & wait", {
        timeoutMs: 800,
      });
      expect(result.status).toBe("timed-out");
      expect(result.cleanup.pid).toBeGreaterThan(0);
      const pids = pidsIn(stdout);
      expect(pids.length).toBe(2);
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
      expect(isAlive(result.cleanup.pid!)).toBe(false);
    });

    it("ends a child that left the process group with setsid (found through the tree)", async () => {
      const { result, stdout } = await run("setsid sleep 60 & echo $!; wait", { timeoutMs: 800 });
      expect(result.status).toBe("timed-out");
      expect(result.cleanup.confirmed).toBe(true);
      const [pid] = pidsIn(stdout);
      expect(pid).toBeDefined();
      expect(isAlive(pid!)).toBe(false);
    });

    it("ends a setsid child whose parent already exited (found by the environment marker)", async () => {
      // The inner sh exits at once: its sleep now hangs off init in a session and group of its own.
      const { result, stdout } = await run("sh -c 'setsid sleep 60 >/dev/null 2>&1 & echo $!'; sleep 0.1");
      const [pid] = pidsIn(stdout);
      expect(pid).toBeDefined();
      expect(result.status).toBe("completed");
      expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      expect(isAlive(pid!)).toBe(false);
    });

    it("also finds such a child after a command that ran longer than a second (every pid is read)", async () => {
      const { result, stdout } = await run("sh -c 'setsid sleep 60 >/dev/null 2>&1 & echo $!'; sleep 1.2");
      const [pid] = pidsIn(stdout);
      expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      expect(isAlive(pid!)).toBe(false);
    });

    it("gives each command its own TACKLE_EXEC_ID marker", async () => {
      const first = await run('printf "%s" "$TACKLE_EXEC_ID"');
      const second = await run('printf "%s" "$TACKLE_EXEC_ID"');
      expect(first.stdout).toMatch(/^[0-9a-f]{24}$/);
      expect(second.stdout).toMatch(/^[0-9a-f]{24}$/);
      expect(second.stdout).not.toBe(first.stdout);
    });

    it("a SIGTERM-ignoring tree is killed with SIGKILL and confirmed gone by pid", async () => {
      // Stopped once both pids are out, so the trap is set: a stop before it would end the tree
      // with SIGTERM alone and leave the SIGKILL untested.
      const { result, stdout } = await run("trap '' TERM; sleep 60 & echo $!; echo $$; wait", {
        killGraceMs: 300,
        abortWhen: (out) => linesOut(out).length === 2,
      });
      expect(result).toMatchObject({ status: "cancelled", signal: "SIGKILL" });
      expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
      const pids = pidsIn(stdout);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
    });

    it("a grandchild holding stdout: the call returns with the output and the grandchild is ended", async () => {
      const { result, stdout } = await run("sh -c 'sleep 60 & echo $!' ; echo after");
      expect(result.status).toBe("completed");
      expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      expect(result.cleanup.note).toMatch(/background/);
      const [pid] = pidsIn(stdout);
      expect(stdout.endsWith("after\n")).toBe(true);
      expect(isAlive(pid!)).toBe(false);
    });

    it("a clean command sends no signal at all", async () => {
      const { result } = await run("echo fine");
      expect(result.cleanup).toMatchObject({ termSent: false, killSent: false, confirmed: true });
      expect(result.cleanup.note).toBeUndefined();
    });

    it("an abort before spawn rejects with aborted and starts nothing", async () => {
      const dir = await tempDir();
      await expect(
        ops.exec(`touch ${join(dir, "ran")}`, { shell: "sh", cwd: dir, signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({ code: "aborted" });
      await expect(readFile(join(dir, "ran"))).rejects.toMatchObject({ code: "ENOENT" });
    });

    it("an abort while running resolves cancelled and ends the tree", async () => {
      // Aborted once the child's pid is out: an abort before it would leave nothing to check.
      const { result, stdout } = await run("sleep 60 & echo $!; wait", {
        abortWhen: (out) => linesOut(out).length === 1,
      });
      expect(result.status).toBe("cancelled");
      const [pid] = pidsIn(stdout);
      expect(pid).toBeDefined();
      expect(isAlive(pid!)).toBe(false);
    });
  });

  describe("local exec: dispose", () => {
    it("dispose cancels running commands and ends their trees", async () => {
      const local = createLocalOperations({ spawner });
      const chunks: Uint8Array[] = [];
      let disposed: Promise<void> | undefined;
      const result = await local.exec("sleep 60 & echo $!; wait", {
        shell: "sh",
        cwd: await tempDir(),
        onChunk: (chunk) => {
          chunks.push(chunk.bytes);
          disposed ??= local.dispose!();
        },
      });
      await disposed;
      expect(result.status).toBe("cancelled");
      expect(isAlive(pidsIn(decoder.decode(chunks[0]))[0]!)).toBe(false);
      await local.dispose!(); // idempotent
    });
  });

  describe("local exec: shells and options", () => {
    it("a missing shell binary is not_supported with the shell's name", async () => {
      const local = createLocalOperations({ spawner, env: { PATH: "/nonexistent" } });
      await expect(local.exec("echo", { shell: "pwsh", cwd: await tempDir() })).rejects.toMatchObject({
        code: "not_supported",
        message: expect.stringContaining("pwsh"),
      });
    });

    it("pwsh is either run with -NoProfile -NonInteractive or not_supported here", async () => {
      const outcome = await ops
        .exec("Write-Output $PSVersionTable.PSEdition", { shell: "pwsh", cwd: await tempDir() })
        .then((result) => result.status)
        .catch((error: { code?: string }) => error.code);
      expect(["completed", "not_supported"]).toContain(outcome);
    });

    it("an unknown shell or a negative timeout is invalid_argument", async () => {
      const cwd = await tempDir();
      await expect(ops.exec("true", { shell: "zsh" as "sh", cwd })).rejects.toMatchObject({
        code: "invalid_argument",
      });
      await expect(ops.exec("true", { shell: "sh", cwd, timeoutMs: -1 })).rejects.toMatchObject({
        code: "invalid_argument",
      });
    });

    it("a timeout beyond the timer range means no timeout, not an immediate one", async () => {
      const { result } = await run("sleep 0.2; echo done", { timeoutMs: 2 ** 40 });
      expect(result.status).toBe("completed");
    });

    it("a cwd that is a file is not_directory", async () => {
      const dir = await tempDir();
      await ops.writeFile(join(dir, "f"), "x");
      await expect(ops.exec("true", { shell: "sh", cwd: join(dir, "f") })).rejects.toMatchObject({
        code: "not_directory",
      });
    });

    it("the base environment comes from the options, env merges over it", async () => {
      const local = createLocalOperations({
        spawner,
        env: { PATH: process.env.PATH, BASE_ONLY: "base", BOTH: "base" },
      });
      const chunks: Uint8Array[] = [];
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      await local.exec('printf "%s %s %s" "$BASE_ONLY" "$BOTH" "${HOME-nohome}"', {
        shell: "sh",
        cwd: await tempDir(),
        env: { BOTH: "call" },
        onChunk: (chunk) => chunks.push(chunk.bytes),
      });
      expect(chunks.map((bytes) => decoder.decode(bytes)).join("")).toBe("base call nohome");
    });

    it("outputPath fast path reports the file's growth as stdoutBytes and keeps stream order", async () => {
      const dir = await tempDir();
      const file = join(dir, "out.log");
      const chunks: OutputChunk[] = [];
      const result = await ops.exec("echo 1; echo 2 >&2; echo 3; echo 4 >&2", {
        shell: "sh",
        cwd: dir,
        outputPath: file,
        streamChunks: false,
        onChunk: (chunk) => chunks.push(chunk),
      });
      expect(await readFile(file, "utf8")).toBe("1\n2\n3\n4\n");
      expect(result).toMatchObject({ stdoutBytes: 8, stderrBytes: 0 });
      expect(chunks).toEqual([]);
    });
  });
});
