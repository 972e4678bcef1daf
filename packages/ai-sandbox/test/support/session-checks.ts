/**
 * What any AI SDK sandbox session does, checked the same way on the AI SDK's own just-bash
 * session and on Tackle's session over `Operations`: the parts of the interface both implement.
 */
import { describe, expect, it } from "vitest";
import type { SandboxSession, SandboxSessionLike } from "../../src/index.js";

/** A session under test and the base directory its relative paths resolve against. */
export interface SessionSubject {
  session: SandboxSessionLike | SandboxSession;
  base: string;
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Registers the shared checks; `get` returns the subject made in the caller's `beforeAll`. */
export function describeSessionChecks(name: string, get: () => SessionSubject): void {
  describe(`sandbox session behaviour: ${name}`, () => {
    it("writes text with its parents created, reads it back whole and by line range", async () => {
      const { session, base } = get();
      await session.writeTextFile({ path: `${base}/deep/er/notes.txt`, content: "one\ntwo\nthree\n" });
      expect(await session.readTextFile({ path: `${base}/deep/er/notes.txt` })).toBe("one\ntwo\nthree\n");
      expect(
        await session.readTextFile({ path: `${base}/deep/er/notes.txt`, startLine: 2, endLine: 2 }),
      ).toBe("two");
      expect(
        await session.readTextFile({ path: `${base}/deep/er/notes.txt`, startLine: 2, endLine: 99 }),
      ).toBe("two\nthree\n");
    });
    it("resolves relative paths against the base directory", async () => {
      const { session, base } = get();
      await session.writeTextFile({ path: "relative.txt", content: "rel\n" });
      expect(await session.readTextFile({ path: `${base}/relative.txt` })).toBe("rel\n");
      const pwd = await session.run({ command: "pwd" });
      expect(pwd.stdout.trim()).toBe(base);
    });
    it("reads bytes exactly, as an array and as a stream; a missing file is null", async () => {
      const { session, base } = get();
      const bytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
      await session.writeBinaryFile({ path: `${base}/bytes.bin`, content: bytes });
      expect(await session.readBinaryFile({ path: `${base}/bytes.bin` })).toEqual(bytes);
      const stream = await session.readFile({ path: `${base}/bytes.bin` });
      const chunks: Uint8Array[] = [];
      for await (const chunk of stream ?? new ReadableStream()) chunks.push(chunk);
      expect(new Uint8Array(Buffer.concat(chunks))).toEqual(bytes);
      expect(await session.readBinaryFile({ path: `${base}/missing.bin` })).toBeNull();
      expect(await session.readTextFile({ path: `${base}/missing.txt` })).toBeNull();
      expect(await session.readFile({ path: `${base}/missing.bin` })).toBeNull();
    });
    it("writes from a byte stream", async () => {
      const { session, base } = get();
      const content = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("from "));
          controller.enqueue(new TextEncoder().encode("a stream\n"));
          controller.close();
        },
      });
      await session.writeFile({ path: `${base}/streamed.txt`, content });
      expect(await session.readTextFile({ path: `${base}/streamed.txt` })).toBe("from a stream\n");
    });
    it("run: exit code, both streams, a working directory and environment variables", async () => {
      const { session, base } = get();
      await session.writeTextFile({ path: `${base}/sub/marker.txt`, content: "here\n" });
      const result = await session.run({
        command: 'echo "$GREETING"; cat marker.txt; echo oops >&2; exit 3',
        workingDirectory: `${base}/sub`,
        env: { GREETING: "hello there" },
      });
      expect(result).toMatchObject({ exitCode: 3, stdout: "hello there\nhere\n", stderr: "oops\n" });
    });
    it("run sees what the file methods wrote, and the file methods see what run wrote", async () => {
      const { session, base } = get();
      await session.run({ command: `printf 'by run\\n' > '${base}/by-run.txt'` });
      expect(await session.readTextFile({ path: `${base}/by-run.txt` })).toBe("by run\n");
    });
    it("spawn: streams output and resolves wait with the exit code", async () => {
      const { session } = get();
      const process = await session.spawn({ command: "echo first; echo second >&2; exit 5" });
      const [stdout, stderr, end] = await Promise.all([
        text(process.stdout),
        text(process.stderr),
        process.wait(),
      ]);
      expect({ stdout, stderr, exitCode: end.exitCode }).toEqual({
        stdout: "first\n",
        stderr: "second\n",
        exitCode: 5,
      });
    });
  });
}
