/**
 * What an audited file tool hashes: each distinct content once (the stale-read check's hash of the
 * old content and the read ledger's hash of the new one are the ones the record carries), and the
 * record's sha256 before and after are those of the bytes really there before and after. Hashes
 * are counted through node:crypto's own `createHash`, wrapped for the test and handed to every
 * importer of the built-in module by `syncBuiltinESMExports`.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AuditFileChange,
  createMemoryAuditSink,
  invokeTool,
  type MemoryAuditSink,
} from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

const crypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");

/** Big enough that no other hash of a call (edit texts, ids) comes near it. */
const FILE_BYTES = 1024 * 1024;
const line = (n: number) => `line ${String(n).padStart(7, "0")} of a file large enough to count\n`;
const original = Array.from({ length: Math.ceil(FILE_BYTES / line(0).length) }, (_, i) => line(i)).join("");

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/**
 * Runs `fn` and returns the size of every sha256 computed meanwhile over at least `min` bytes,
 * in order: each is one pass of hashing over a whole content.
 */
async function sha256Passes(min: number, fn: () => Promise<unknown>): Promise<number[]> {
  const real = crypto.createHash;
  const passes: number[] = [];
  crypto.createHash = ((algorithm: string, options?: never) => {
    const hash = real(algorithm, options);
    if (algorithm !== "sha256") return hash;
    let bytes = 0;
    const update = hash.update.bind(hash) as (data: string | NodeJS.ArrayBufferView) => typeof hash;
    const digest = hash.digest.bind(hash) as (encoding: "hex") => string;
    hash.update = ((data: string | NodeJS.ArrayBufferView) => {
      bytes += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
      return update(data);
    }) as typeof hash.update;
    hash.digest = ((encoding: "hex") => {
      if (bytes >= min) passes.push(bytes);
      return digest(encoding);
    }) as typeof hash.digest;
    return hash;
  }) as typeof crypto.createHash;
  syncBuiltinESMExports();
  try {
    await fn();
  } finally {
    crypto.createHash = real;
    syncBuiltinESMExports();
  }
  return passes;
}

let dir: string;
let path: string;
let sink: MemoryAuditSink;
let tools: ReturnType<typeof toolsIn>;
let calls = 0;

function toolsIn(cwd: string, audit: MemoryAuditSink) {
  return createTools({ context: createLocalToolContext({ cwd, audit }), names: ["read", "edit", "write"] });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-audit-file-effects-"));
  path = join(dir, "big.txt");
  await writeFile(path, original);
  sink = createMemoryAuditSink();
  tools = toolsIn(dir, sink);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs one audited call; returns its id. */
async function call(name: "read" | "edit" | "write", args: unknown): Promise<string> {
  const id = `file-effects-${++calls}`;
  const outcome = await invokeTool(tools[name], args, {
    toolCallId: id,
    audit: { sink, requestedBy: "model", sessionId: "file-effects" },
  });
  expect(outcome.isError, JSON.stringify(outcome.content)).toBe(false);
  return id;
}

/** The exact side effect the call recorded. */
function changeOf(id: string): AuditFileChange {
  const effects = sink.forCall(id).filter((event) => event.kind === "side-effect");
  expect(effects).toHaveLength(1);
  const effect = effects[0] as { method: string; files: AuditFileChange[] };
  expect(effect.method).toBe("exact");
  expect(effect.files).toHaveLength(1);
  return effect.files[0] as AuditFileChange;
}

const edit = { oldText: line(5), newText: "line five, edited\n" };
const edited = original.replace(line(5), "line five, edited\n");

/**
 * The local adapter's compare right before its rename (`WriteFileOptions.expect`) hashes the
 * content being replaced once more, in this process (SSH and Docker do it in the environment):
 * not the tool's pass, and needed whether or not there is an audit.
 */
const adapterCompare = (bytes: number) => [bytes];

describe("audited file tools hash each content once", () => {
  it("an edit after a read: the old content once (stale check), the new once (ledger)", async () => {
    await call("read", { path: "big.txt" });
    let id = "";
    const passes = await sha256Passes(FILE_BYTES / 2, async () => {
      id = await call("edit", { path: "big.txt", edits: [edit] });
    });
    expect(passes).toEqual([
      Buffer.byteLength(original),
      ...adapterCompare(Buffer.byteLength(original)),
      Buffer.byteLength(edited),
    ]);
    const change = changeOf(id);
    expect(await readFile(path, "utf8")).toBe(edited);
    expect(change).toMatchObject({
      path,
      change: "changed",
      bytesBefore: Buffer.byteLength(original),
      sha256Before: sha256(original),
      bytesAfter: Buffer.byteLength(edited),
      sha256After: sha256(await readFile(path)),
    });
  });

  it("an edit of a file never read: the old content once (for the record), the new once", async () => {
    let id = "";
    const passes = await sha256Passes(FILE_BYTES / 2, async () => {
      id = await call("edit", { path: "big.txt", edits: [edit] });
    });
    const bySize = (a: number, b: number) => a - b;
    expect(passes.sort(bySize)).toEqual(
      [
        Buffer.byteLength(original),
        ...adapterCompare(Buffer.byteLength(original)),
        Buffer.byteLength(edited),
      ].sort(bySize),
    );
    expect(changeOf(id)).toMatchObject({ sha256Before: sha256(original), sha256After: sha256(edited) });
  });

  it("a write over a file read before, and a new file: each content once", async () => {
    await call("read", { path: "big.txt" });
    const replaced = original.toUpperCase();
    let over = "";
    let created = "";
    const passes = await sha256Passes(FILE_BYTES / 2, async () => {
      over = await call("write", { path: "big.txt", content: replaced });
      created = await call("write", { path: "new.txt", content: original });
    });
    // The new file is written with `expect: { absent: true }`: nothing to hash there.
    expect(passes).toEqual([
      original.length,
      ...adapterCompare(original.length),
      replaced.length,
      original.length,
    ]);
    expect(changeOf(over)).toMatchObject({
      change: "changed",
      sha256Before: sha256(original),
      sha256After: sha256(await readFile(path)),
    });
    const made = changeOf(created);
    expect(made).toMatchObject({
      change: "created",
      sha256After: sha256(await readFile(join(dir, "new.txt"))),
    });
    expect(made.sha256Before).toBeUndefined();
  });
});
