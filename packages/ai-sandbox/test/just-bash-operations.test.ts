/**
 * Tackle's `Operations` over a real third-party session from npm: the AI SDK's just-bash session
 * (`@ai-sdk/sandbox-just-bash`, an in-memory bash written in TypeScript). Its commands are
 * emulated, so the adapter works in "basic" mode: what the session can do works with Tackle's
 * error codes, what it cannot is refused with `not_supported`.
 */
import { createHash } from "node:crypto";
import { createJustBashSandbox } from "@ai-sdk/sandbox-just-bash";
import {
  isOperationError,
  type OperationErrorCode,
  type OutputChunk,
  outputCutMarker,
  outputHeadBytes,
  outputTailBytes,
} from "@tackle/operations";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createSandboxSessionOperations,
  type SandboxSessionLike,
  type SandboxSessionOperations,
} from "../src/index.js";

let ops: SandboxSessionOperations;
let session: SandboxSessionLike;
beforeAll(async () => {
  const provider = createJustBashSandbox({ cwd: "/work" });
  session = (await provider.createSession()).restricted();
  ops = createSandboxSessionOperations(session, { id: "ai-sandbox://just-bash" });
});

const code =
  (...codes: OperationErrorCode[]) =>
  (error: unknown) =>
    isOperationError(error, ...codes);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("Operations over the AI SDK's just-bash session", () => {
  it("connects in basic mode", async () => {
    expect(await ops.connect()).toBe("basic");
    // listTree is the shared script's: not offered here, so the tools walk with readdir.
    expect(ops.listTree).toBeUndefined();
  });

  it("writes, reads (whole, capped, from an offset), stats and lists with Tackle's codes", async () => {
    await ops.mkdir("/work/a/b", { recursive: true });
    await ops.writeFile("/work/a/b/f.txt", "alpha\nbeta\n");
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => i % 256);
    await ops.writeFile("/work/a/bin", bytes);
    expect(text(await ops.readFile("/work/a/b/f.txt"))).toBe("alpha\nbeta\n");
    expect(await ops.readFile("/work/a/bin")).toEqual(bytes);
    const tail: Uint8Array[] = [];
    for await (const chunk of ops.openRead("/work/a/bin", { start: 250 })) tail.push(chunk);
    expect(new Uint8Array(Buffer.concat(tail))).toEqual(bytes.subarray(250));
    expect(await ops.stat("/work/a/b/f.txt")).toMatchObject({ type: "file", size: 11 });
    expect(await ops.stat("/work/a/b")).toMatchObject({ type: "directory" });
    expect((await ops.readdir("/work/a")).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: "b", type: "directory" },
      { name: "bin", type: "file" },
    ]);
    await expect(ops.readFile("/work/a/b/f.txt", { maxBytes: 5 })).rejects.toSatisfy(code("too_large"));
    await expect(ops.readFile("/work/a/missing")).rejects.toSatisfy(code("not_found"));
    await expect(ops.readFile("/work/a/b")).rejects.toSatisfy(code("is_directory"));
    await expect(ops.readFile("/work/a/b/f.txt/x")).rejects.toSatisfy(code("not_directory"));
    await expect(ops.readdir("/work/a/bin")).rejects.toSatisfy(code("not_directory"));
    await expect(ops.mkdir("/work/a/b")).rejects.toSatisfy(code("exists"));
    await expect(ops.mkdir("/work/none/x")).rejects.toSatisfy(code("not_found"));
    await expect(ops.readFile("relative.txt")).rejects.toSatisfy(code("invalid_argument"));
  });

  it("links: created, followed by stat and realpath, reported by lstat and readlink", async () => {
    await ops.mkdir("/work/l");
    await ops.writeFile("/work/l/target.txt", "t");
    await ops.symlink("target.txt", "/work/l/link");
    expect((await ops.lstat("/work/l/link")).type).toBe("symlink");
    expect(await ops.stat("/work/l/link")).toMatchObject({ type: "file", size: 1 });
    expect(await ops.readlink("/work/l/link")).toBe("target.txt");
    expect(await ops.realpath("/work/l/link")).toBe("/work/l/target.txt");
    await expect(ops.readlink("/work/l/target.txt")).rejects.toSatisfy(code("invalid_argument"));
    await expect(ops.symlink("x", "/work/l/link")).rejects.toSatisfy(code("exists"));
  });

  it("writing over a directory is is_directory and the directory stays; within keeps writes in the root", async () => {
    await ops.mkdir("/work/w/dir", { recursive: true });
    await expect(ops.writeFile("/work/w/dir", "x")).rejects.toSatisfy(code("is_directory"));
    expect((await ops.stat("/work/w/dir")).type).toBe("directory");
    await ops.mkdir("/work/outside", { recursive: true });
    await ops.symlink("/work/outside", "/work/w/escape");
    await expect(ops.writeFile("/work/w/escape/planted.txt", "x", { within: "/work/w" })).rejects.toSatisfy(
      code("outside_root"),
    );
    await expect(ops.stat("/work/outside/planted.txt")).rejects.toSatisfy(code("not_found"));
    await ops.writeFile("/work/w/inside.txt", "ok", { within: "/work/w" });
    expect(text(await ops.readFile("/work/w/inside.txt"))).toBe("ok");
  });

  it("conditional writes: the compare and the write under one lock for every adapter on the session", async () => {
    await ops.mkdir("/work/c", { recursive: true });
    await ops.writeFile("/work/c/f.txt", "one");
    const sha = (content: string) => createHash("sha256").update(content).digest("hex");
    await ops.writeFile("/work/c/f.txt", "two", { expect: { sha256: sha("one") } });
    await expect(
      ops.writeFile("/work/c/f.txt", "three", { expect: { sha256: sha("one") } }),
    ).rejects.toSatisfy(code("changed"));
    await expect(ops.writeFile("/work/c/f.txt", "x", { expect: { absent: true } })).rejects.toSatisfy(
      code("changed"),
    );
    expect(text(await ops.readFile("/work/c/f.txt"))).toBe("two");
    await ops.writeFile("/work/c/new.txt", "new", { expect: { absent: true } });
    // Two adapters on one session, each appending its own lines with read-compare-write: none lost.
    const other = createSandboxSessionOperations(session, { id: "ai-sandbox://just-bash" });
    await ops.writeFile("/work/c/shared.txt", "");
    const writer = async (adapter: SandboxSessionOperations, name: string) => {
      for (let round = 0; round < 20; round++) {
        for (;;) {
          const before = text(await adapter.readFile("/work/c/shared.txt"));
          try {
            await adapter.writeFile("/work/c/shared.txt", `${before}${name}${round}\n`, {
              expect: { sha256: sha(before) },
            });
            break;
          } catch (error) {
            if (!isOperationError(error, "changed")) throw error;
          }
        }
      }
    };
    await Promise.all([writer(ops, "a"), writer(other, "b")]);
    const lines = text(await ops.readFile("/work/c/shared.txt"))
      .trim()
      .split("\n");
    expect(lines).toHaveLength(40);
    expect(lines.filter((line) => line.startsWith("a")).map((line) => Number(line.slice(1)))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  it("rename, chmod and remove (a file, an empty and a full directory)", async () => {
    await ops.mkdir("/work/r/full", { recursive: true });
    await ops.writeFile("/work/r/full/x", "x");
    await ops.writeFile("/work/r/from", "moved");
    await ops.rename("/work/r/from", "/work/r/to");
    expect(text(await ops.readFile("/work/r/to"))).toBe("moved");
    await ops.chmod("/work/r/to", 0o600);
    expect((await ops.stat("/work/r/to")).mode).toBe(0o600);
    await ops.writeFile("/work/r/to", "rewritten");
    expect((await ops.stat("/work/r/to")).mode).toBe(0o600); // an existing file keeps its mode
    await ops.writeFile("/work/r/new", "x", { mode: 0o640 });
    expect((await ops.stat("/work/r/new")).mode).toBe(0o640);
    await ops.remove("/work/r/new");
    await expect(ops.remove("/work/r/full")).rejects.toSatisfy(code("exists"));
    await ops.remove("/work/r/full", { recursive: true });
    await ops.remove("/work/r/to");
    await expect(ops.remove("/work/r/to")).rejects.toSatisfy(code("not_found"));
    await ops.remove("/work/r/to", { force: true });
    expect(await ops.readdir("/work/r")).toEqual([]);
  });

  it("exec: exit codes, numbered chunks of both streams, cwd and env; what it cannot do is refused", async () => {
    const chunks: OutputChunk[] = [];
    const result = await ops.exec('echo "$GREETING"; pwd; echo err >&2; exit 4', {
      shell: "bash",
      cwd: "/work/a",
      env: { GREETING: "hi there" },
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
    const of = (stream: string) =>
      chunks
        .filter((chunk) => chunk.stream === stream)
        .map((chunk) => text(chunk.bytes))
        .join("");
    expect({ stdout: of("stdout"), stderr: of("stderr") }).toEqual({
      stdout: "hi there\n/work/a\n",
      stderr: "err\n",
    });
    expect(chunks.map((chunk) => chunk.seq)).toEqual(chunks.map((_, index) => index));
    await expect(
      ops.exec("true", { shell: "bash", cwd: "/work", env: { HOME: undefined } }),
    ).rejects.toSatisfy(code("not_supported"));
  });

  it("exec: an output file kept by the host, with the output budget's head, marker and tail", async () => {
    await ops.writeFile("/work/out.log", "before\n");
    const whole = await ops.exec("echo one; echo two >&2", {
      shell: "bash",
      cwd: "/work",
      outputPath: "/work/out.log",
    });
    expect(whole).toMatchObject({ status: "completed", stdoutBytes: 4, stderrBytes: 4 });
    expect(
      text(await ops.readFile("/work/out.log"))
        .split("\n")
        .sort(),
    ).toEqual(["", "before", "one", "two"]);
    const limit = 1000;
    const lines = Array.from({ length: 500 }, (_, i) => `${i + 1}\n`).join("");
    const cut = await ops.exec("seq 1 500; exit 3", {
      shell: "bash",
      cwd: "/work",
      outputPath: "/work/cut.log",
      streamChunks: false,
      outputLimitBytes: limit,
    });
    const head = outputHeadBytes(limit);
    const tail = outputTailBytes(limit);
    const dropped = lines.length - head - tail;
    expect(cut).toMatchObject({ status: "failed", exitCode: 3, stdoutBytes: lines.length, stderrBytes: 0 });
    expect(cut.outputCut).toEqual({ headBytes: head, droppedBytes: dropped, tailBytes: tail });
    expect(text(await ops.readFile("/work/cut.log"))).toBe(
      lines.slice(0, head) + outputCutMarker(limit, dropped) + lines.slice(lines.length - tail),
    );
  });

  it("exec: a timeout stops the command, reported timed-out with an unconfirmed cleanup", async () => {
    const result = await ops.exec("echo started; sleep 30; echo never", {
      shell: "bash",
      cwd: "/work",
      timeoutMs: 300,
    });
    expect(result.status).toBe("timed-out");
    expect(result.cleanup).toMatchObject({ termSent: true, confirmed: false });
    expect(result.cleanup.note).toContain("kill()");
  });
});
