/**
 * A read of a file above the whole-hash size (made small here) records the hash of the bytes it
 * showed with the file's size and mtime, not a hash of the whole file; edit and write still
 * refuse a file that changed since, in the part read or elsewhere, and accept one that did not.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

const LINES = 400;
const lineText = (n: number) => `line ${String(n).padStart(4, "0")} of the big file`;
const content = `${Array.from({ length: LINES }, (_, i) => lineText(i + 1)).join("\n")}\n`;

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-read-window-"));
  path = join(dir, "big.txt");
  await writeFile(path, content);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function toolsFor(wholeHashMaxBytes: number) {
  const context = createLocalToolContext({ cwd: dir });
  return {
    context,
    ...createTools({ context, names: ["read", "edit", "write"], tools: { read: { wholeHashMaxBytes } } }),
  };
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Rewrites the file with `change` applied, keeping its size and mtime (a same-size edit within one mtime tick). */
async function rewriteKeepingSizeAndTime(change: (text: string) => string) {
  const before = await stat(path);
  const next = change(await readFile(path, "utf8"));
  expect(Buffer.byteLength(next)).toBe(before.size);
  await writeFile(path, next);
  await utimes(path, before.atime, before.mtime);
}

const tailEdit = { path: "big.txt", edits: [{ oldText: lineText(LINES), newText: "the last line, edited" }] };

describe("read ledger for files above the whole-hash size", () => {
  it("records the bytes shown (size, mtime, range, hash), not the whole file", async () => {
    const { context, read } = toolsFor(1024);
    const outcome = await invokeTool(read, { path: "big.txt", offset: LINES - 9, limit: 10 });
    expect(outcome.isError).toBe(false);
    const record = context.reads.get(await context.operations.realpath(path));
    const size = Buffer.byteLength(content);
    expect(record?.window).toMatchObject({ size, mtimeMs: (await stat(path)).mtimeMs });
    const window = record!.window!;
    const bytes = Buffer.from(content);
    // The range starts at the first line shown and covers every line shown.
    expect(bytes.subarray(window.start, window.end).toString()).toMatch(
      new RegExp(`^${lineText(LINES - 9)}`),
    );
    expect(window.end).toBe(size);
    expect(record?.sha256).toBe(sha256(bytes.subarray(window.start, window.end)));
    expect(record?.sha256).not.toBe(sha256(bytes));
  });

  it("a file up to the size is still hashed whole", async () => {
    const { context, read } = toolsFor(1024 * 1024);
    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    const record = context.reads.get(await context.operations.realpath(path));
    expect(record?.window).toBeUndefined();
    expect(record?.sha256).toBe(sha256(content));
  });

  it("edit goes ahead when nothing changed, and a follow-up edit too", async () => {
    const { read, edit } = toolsFor(1024);
    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    expect((await invokeTool(edit, tailEdit)).isError).toBe(false);
    const again = await invokeTool(edit, {
      path: "big.txt",
      edits: [{ oldText: "the last line, edited", newText: "edited twice" }],
    });
    expect(again.isError).toBe(false);
    expect(await readFile(path, "utf8")).toContain("edited twice");
  });

  it("edit refuses a change inside the part read, even with the same size and mtime", async () => {
    const { read, edit } = toolsFor(1024);
    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    await rewriteKeepingSizeAndTime((text) =>
      text.replace(lineText(LINES - 1), lineText(LINES - 1).toUpperCase()),
    );
    const outcome = await invokeTool(edit, tailEdit);
    expect(outcome.errorCode).toBe("stale_read");
  });

  it("edit and write refuse a change elsewhere (the mtime moved), and a touch alone", async () => {
    const { read, edit, write } = toolsFor(1024);
    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    await writeFile(path, content.replace(lineText(1), "LINE 0001 OF THE BIG FILE"));
    const later = new Date(Date.now() + 5000);
    await utimes(path, later, later);
    expect((await invokeTool(edit, tailEdit)).errorCode).toBe("stale_read");
    expect((await invokeTool(write, { path: "big.txt", content: "new\n" })).errorCode).toBe("stale_read");

    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    const touched = new Date(Date.now() + 10_000);
    await utimes(path, touched, touched);
    expect((await invokeTool(edit, tailEdit)).errorCode).toBe("stale_read");
    // Reading again is the way on.
    await invokeTool(read, { path: "big.txt", offset: LINES - 9 });
    expect((await invokeTool(edit, tailEdit)).isError).toBe(false);
  });

  it("a read from the start records its window from the start", async () => {
    const { context, read } = toolsFor(1024);
    await invokeTool(read, { path: "big.txt", limit: 5 });
    const record = context.reads.get(await context.operations.realpath(path));
    expect(record?.window?.start).toBe(0);
    expect(record?.window?.end).toBeGreaterThanOrEqual(5 * (lineText(1).length + 1));
  });
});
