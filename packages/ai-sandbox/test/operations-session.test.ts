import { mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJustBashSandbox } from "@ai-sdk/sandbox-just-bash";
import { isToolError } from "@tackle/agent-core";
import { isOperationError } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { getFileMutationQueue } from "@tackle/session";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOperationsSandboxSession, type SandboxSession } from "../src/index.js";
import { describeSessionChecks, type SessionSubject } from "./support/session-checks.js";

const ops = createLocalOperations();

/** True while process `pid` runs (a zombie has ended: only its parent has not reaped it yet). */
async function isRunning(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return status !== "" && !/^State:\s*[ZX]/m.test(status);
}
let dir: string;
let session: SandboxSession;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-")));
  session = createOperationsSandboxSession({ operations: ops, cwd: dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let justBash: SessionSubject | undefined;
beforeAll(async () => {
  // The AI SDK's own session over just-bash (an in-memory bash in TypeScript), from npm.
  const provider = createJustBashSandbox({ cwd: "/work" });
  justBash = { session: (await provider.createSession()).restricted(), base: "/work" };
});

describeSessionChecks("the AI SDK's just-bash session (reference)", () => {
  if (!justBash) throw new Error("just-bash session not made: see beforeAll");
  return justBash;
});
describeSessionChecks("Tackle's session over local Operations", () => ({ session, base: dir }));

describe("Tackle's session: what Tackle adds", () => {
  it("stat, listDirectory and deleteFile as the interface defines them", async () => {
    await session.writeTextFile({ path: "listed/a.txt", content: "abc" });
    await symlink("a.txt", join(dir, "listed", "link"));
    expect(await session.stat({ path: "listed/a.txt" })).toEqual({ type: "file", size: 3 });
    expect(await session.stat({ path: "listed" })).toMatchObject({ type: "directory" });
    expect(await session.stat({ path: "listed/link" })).toEqual({ type: "file", size: 3 });
    expect(await session.stat({ path: "listed/none" })).toBeNull();
    const entries = await session.listDirectory({ path: "listed" });
    expect(entries?.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "a.txt", type: "file" },
      { name: "link", type: "symlink" },
    ]);
    expect(await session.listDirectory({ path: "no-such-dir" })).toBeNull();
    await expect(session.listDirectory({ path: "listed/a.txt" })).rejects.toSatisfy((error) =>
      isOperationError(error, "not_directory"),
    );
    expect(await session.deleteFile({ path: "listed/link" })).toBe(true);
    expect(await readFile(join(dir, "listed", "a.txt"), "utf8")).toBe("abc");
    expect(await session.deleteFile({ path: "listed/link" })).toBe(false);
    await expect(session.deleteFile({ path: "listed" })).rejects.toSatisfy((error) =>
      isOperationError(error, "is_directory"),
    );
  });

  it("refuses paths outside the workspace with a typed error, before touching them", async () => {
    const outside = await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-outside-"));
    try {
      await writeFile(join(outside, "secret.txt"), "secret\n");
      const refused = (error: unknown) => isToolError(error, "outside_workspace");
      await expect(session.readTextFile({ path: join(outside, "secret.txt") })).rejects.toSatisfy(refused);
      await expect(session.writeTextFile({ path: join(outside, "new.txt"), content: "x" })).rejects.toSatisfy(
        refused,
      );
      // A link inside the workspace that points out of it is resolved before the policy decides.
      await symlink(outside, join(dir, "escape"));
      await expect(session.readTextFile({ path: "escape/secret.txt" })).rejects.toSatisfy(refused);
      await expect(session.writeTextFile({ path: "escape/planted.txt", content: "x" })).rejects.toSatisfy(
        refused,
      );
      await expect(session.run({ command: "pwd", workingDirectory: outside })).rejects.toSatisfy(refused);
      await expect(readFile(join(outside, "planted.txt"))).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("writing over a directory rejects with is_directory and leaves it as it was", async () => {
    await session.run({ command: "mkdir -p adir/inner" });
    await expect(session.writeTextFile({ path: "adir", content: "x" })).rejects.toSatisfy((error) =>
      isOperationError(error, "is_directory"),
    );
    expect(await session.stat({ path: "adir/inner" })).toMatchObject({ type: "directory" });
  });

  it("writes wait for the mutation queue the Tackle tools on the same Operations share", async () => {
    const queue = getFileMutationQueue(ops);
    let release!: () => void;
    const held = queue.withFileMutation(
      join(dir, "queued.txt"),
      () => new Promise<void>((r) => (release = r)),
    );
    let written = false;
    const write = session.writeTextFile({ path: "queued.txt", content: "after\n" }).then(() => {
      written = true;
    });
    // The write is behind the held mutation: its file does not exist until the hold ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await session.readTextFile({ path: "queued.txt" })).toBeNull();
    expect(written).toBe(false);
    release();
    await Promise.all([held, write]);
    expect(await session.readTextFile({ path: "queued.txt" })).toBe("after\n");
  });

  it("commandsHoldWrites: a write waits for the running command; without it the write lands meanwhile", async () => {
    const wait =
      "touch started; while [ ! -e held.txt ] && [ ! -e release ]; do sleep 0.02; done; [ -e held.txt ] && echo landed || echo held";
    for (const commandsHoldWrites of [false, true]) {
      const cwd = await mkdtemp(join(dir, "hold-"));
      const held = createOperationsSandboxSession({ operations: ops, cwd, commandsHoldWrites });
      const run = held.run({ command: wait });
      await vi.waitFor(() => readFile(join(cwd, "started")));
      const write = held.writeTextFile({ path: "held.txt", content: "x" });
      // Held, the write cannot land before the command ends: release the command from here.
      if (commandsHoldWrites) await writeFile(join(cwd, "release"), "");
      expect((await run).stdout).toBe(commandsHoldWrites ? "held\n" : "landed\n");
      await write;
      expect(await readFile(join(cwd, "held.txt"), "utf8")).toBe("x");
    }
  });

  it("run: maxOutputLength keeps the start of each stream and reports the full lengths", async () => {
    const result = await session.run({
      command: "printf 'abcdefghij'; printf 'xyz' >&2",
      maxOutputLength: 4,
    });
    expect(result).toEqual({ exitCode: 0, stdout: "abcd", stderr: "xyz", stdoutLength: 10, stderrLength: 3 });
  });

  it("spawn: the pid, and kill ends the command with every process it started", async () => {
    const process = await session.spawn({ command: "sleep 60 & echo $!; wait" });
    expect(process.pid).toBeGreaterThan(0);
    const reader = process.stdout.getReader();
    const first = await reader.read();
    const child = Number(new TextDecoder().decode(first.value).trim());
    expect(child).toBeGreaterThan(0);
    await process.kill();
    await process.kill(); // idempotent
    const { exitCode } = await process.wait();
    expect(exitCode).not.toBe(0);
    await vi.waitFor(async () => expect(await isRunning(child)).toBe(false));
  });

  it("spawn: an abort rejects wait with the reason; stdin: true is refused before anything starts", async () => {
    const controller = new AbortController();
    const process = await session.spawn({ command: "sleep 60", abortSignal: controller.signal });
    const reason = new Error("stop it");
    controller.abort(reason);
    await expect(process.wait()).rejects.toBe(reason);
    await expect(session.spawn({ command: "touch started.flag", stdin: true })).rejects.toSatisfy((error) =>
      isOperationError(error, "not_supported"),
    );
    expect(await session.stat({ path: "started.flag" })).toBeNull();
  });
});
