/** Conformance section for the write tool: runs unchanged on any `Operations`. */

import { createWorkspacePolicy } from "@tackle/session";
import { describe, expect, it } from "vitest";
import { createReadToolDefinition } from "../tools/read.js";
import { createWriteToolDefinition } from "../tools/write.js";
import { callWithDirectorySwapped, type ToolsConformanceEnv, textOf } from "./env.js";
import { unmarkedTextOf } from "./marker.js";

const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

/** The write tool's behaviour list. */
export function defineWriteConformance(getEnv: () => ToolsConformanceEnv): void {
  const write = createWriteToolDefinition();
  const read = createReadToolDefinition();

  describe("write", () => {
    it("creates a file and its parents and reports UTF-8 bytes and lines", async () => {
      const env = getEnv();
      const out = await env.run(write, { path: "write/new/deep/file.txt", content: "héllo\nworld\n" });
      expect(out.isError).toBe(false);
      expect(textOf(out)).toBe("Created write/new/deep/file.txt: 2 lines, 13 bytes.");
      expect(decode(await env.ctx.operations.readFile(env.path("write/new/deep/file.txt")))).toBe(
        "héllo\nworld\n",
      );
    });

    it("overwrites atomically and keeps the file's mode", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/run.sh": "echo old\n" });
      await env.ctx.operations.chmod(env.path("write/run.sh"), 0o755);
      const out = await env.run(write, { path: "write/run.sh", content: "echo new\n" });
      expect(textOf(out)).toBe("Overwrote write/run.sh: 1 line, 9 bytes.");
      const stat = await env.ctx.operations.stat(env.path("write/run.sh"));
      expect(stat.mode & 0o777).toBe(0o755);
      expect(decode(await env.ctx.operations.readFile(env.path("write/run.sh")))).toBe("echo new\n");
    });

    it("keeps the BOM and CRLF line endings of an existing file", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/win.txt": "\ufeffa\r\nb\r\n" });
      const out = await env.run(write, { path: "write/win.txt", content: "x\ny\nz\n" });
      expect(textOf(out)).toContain("Kept the file's BOM, CRLF line endings.");
      expect(decode(await env.ctx.operations.readFile(env.path("write/win.txt")))).toBe(
        "\ufeffx\r\ny\r\nz\r\n",
      );
    });

    it("keeps UTF-16 encoding of an existing file", async () => {
      const env = getEnv();
      const le = Uint8Array.from(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("old\n", "utf16le")]));
      await env.fixture(env.root, { "write/u16.txt": le });
      await env.run(write, { path: "write/u16.txt", content: "née\n" });
      const bytes = Buffer.from(await env.ctx.operations.readFile(env.path("write/u16.txt")));
      expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
      expect(bytes.subarray(2).toString("utf16le")).toBe("née\n");
    });

    it("answers a directory with is_directory and the next step", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/a-dir/x.txt": "x" });
      const out = await env.run(write, { path: "write/a-dir", content: "y" });
      expect(out).toMatchObject({ isError: true, errorCode: "is_directory" });
      expect(textOf(out)).toContain("Name a file inside it");
    });

    it("refuses content UTF-8 cannot store (a lone surrogate) instead of writing U+FFFD", async () => {
      const env = getEnv();
      const out = await env.run(write, { path: "write/surrogate.txt", content: "bad \ud800 half\n" });
      expect(out).toMatchObject({ isError: true, errorCode: "encoding" });
      expect(textOf(out)).toContain("Nothing was written");
      await expect(env.ctx.operations.stat(env.path("write/surrogate.txt"))).rejects.toMatchObject({
        code: "not_found",
      });
    });

    it("writes nothing on dryRun", async () => {
      const env = getEnv();
      const out = await env.run(write, { path: "write/dry.txt", content: "a\n", dryRun: true });
      expect(textOf(out)).toBe(
        "Dry run: would create write/dry.txt with 1 line, 2 bytes. Nothing was written.",
      );
      await expect(env.ctx.operations.stat(env.path("write/dry.txt"))).rejects.toMatchObject({
        code: "not_found",
      });
    });

    it("refuses to overwrite a file changed since it was read, until it is read again", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/stale.txt": "v1\n" });
      await env.run(read, { path: "write/stale.txt" });
      await env.ctx.operations.writeFile(env.path("write/stale.txt"), "v2 from someone else\n");
      const refused = await env.run(write, { path: "write/stale.txt", content: "mine\n" });
      expect(refused).toMatchObject({ isError: true, errorCode: "stale_read" });
      expect(textOf(refused)).toBe(
        "write/stale.txt changed since you read it; read it again before editing.",
      );
      expect(decode(await env.ctx.operations.readFile(env.path("write/stale.txt")))).toBe(
        "v2 from someone else\n",
      );
      await env.run(read, { path: "write/stale.txt" });
      expect((await env.run(write, { path: "write/stale.txt", content: "mine\n" })).isError).toBe(false);
    });

    it("accepts a file rewritten with the same content (compared by hash, not time)", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/touched.txt": "same\n" });
      await env.run(read, { path: "write/touched.txt" });
      await env.ctx.operations.writeFile(env.path("write/touched.txt"), "same\n");
      expect((await env.run(write, { path: "write/touched.txt", content: "new\n" })).isError).toBe(false);
    });

    it("refuses to write outside the workspace, through .. or a link", async () => {
      const env = getEnv();
      const outside = await env.ctx.operations.realpath(env.path(".."));
      const direct = await env.run(write, { path: "../tackle-escape.txt", content: "x" });
      expect(direct).toMatchObject({ isError: true, errorCode: "outside_workspace" });
      expect(textOf(direct)).toContain(`${outside}`);
      await env.fixture(env.root, {
        "write/out-link": { symlink: outside },
        "write/dangling": { symlink: `${outside}/tackle-nope.txt` },
      });
      expect(await env.run(write, { path: "write/out-link/x.txt", content: "x" })).toMatchObject({
        errorCode: "outside_workspace",
      });
      expect(await env.run(write, { path: "write/dangling", content: "x" })).toMatchObject({
        errorCode: "outside_workspace",
      });
      await expect(env.ctx.operations.stat(`${outside}/tackle-nope.txt`)).rejects.toMatchObject({
        code: "not_found",
      });
    });

    it("checks the real path again right before writing: a directory swapped for a link to outside is refused", async () => {
      const env = getEnv();
      const ops = env.ctx.operations;
      const join = (...parts: string[]) => parts.join(ops.platform === "win32" ? "\\" : "/");
      const inner = await env.freshDir("write-swap");
      const outside = await env.freshDir("write-swap-outside");
      await env.fixture(inner, { "dir/keep.txt": "" });
      const out = await callWithDirectorySwapped({
        ctx: await env.makeContext(inner),
        dir: join(inner, "dir"),
        linkTo: outside,
        file: join(inner, "dir", "new.txt"),
        call: (ctx) => env.run(write, { path: "dir/new.txt", content: "x\n" }, { ctx }),
      });
      expect(out).toMatchObject({ isError: true, errorCode: "outside_workspace" });
      expect(textOf(out)).toContain(outside);
      await expect(ops.stat(join(outside, "new.txt"))).rejects.toMatchObject({ code: "not_found" });
    });

    it("allows reads but not writes outside under the read-only policy", async () => {
      const env = getEnv();
      const inner = await env.freshDir("write-ro");
      await env.fixture(env.root, { "write/outside-ro.txt": "readable\n" });
      const ctx = await env.makeContext(inner);
      const roCtx = {
        ...ctx,
        workspace: createWorkspacePolicy({ operations: ctx.operations, cwd: inner, outside: "read-only" }),
      };
      const readOut = await env.run(read, { path: "../write/outside-ro.txt" }, { ctx: roCtx });
      expect(unmarkedTextOf(readOut, "read")).toBe("1\treadable");
      const writeOut = await env.run(
        write,
        { path: "../write/outside-ro.txt", content: "no" },
        { ctx: roCtx },
      );
      expect(writeOut).toMatchObject({ isError: true, errorCode: "outside_workspace" });
    });

    it("serialises parallel writes of one file: each lands whole", async () => {
      const env = getEnv();
      const contents = Array.from({ length: 8 }, (_, i) => `${String(i).repeat(50_000)}\n`);
      const outs = await Promise.all(
        contents.map((content) => env.run(write, { path: "write/race.txt", content })),
      );
      expect(outs.every((out) => !out.isError)).toBe(true);
      const final = decode(await env.ctx.operations.readFile(env.path("write/race.txt")));
      expect(contents).toContain(final);
    });

    it("refuses content with a redaction placeholder the file does not hold", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "write/secret.env": "API_KEY=hunter2-secret\n" });
      await env.run(read, { path: "write/secret.env" });
      const out = await env.run(write, {
        path: "write/secret.env",
        content: "API_KEY=[REDACTED:assignment]\n",
      });
      expect(out).toMatchObject({ isError: true, errorCode: "redacted_text" });
      expect(decode(await env.ctx.operations.readFile(env.path("write/secret.env")))).toBe(
        "API_KEY=hunter2-secret\n",
      );
    });
  });
}
