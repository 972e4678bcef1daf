import { createHash, randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INLINE_HASH_BYTES } from "../src/shell/pipeline.js";
import { HASH_READ_BYTES, hashFile } from "../src/shell/read-back.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createShellTestEnv, type ShellTestEnv, textOf } from "./shell-helpers.js";

let env: ShellTestEnv;

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  await env.dispose();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("hashFile reads into two buffers in turn", () => {
  it("hashes every byte of a file of many chunks, each different, exactly", async () => {
    // Random bytes: a chunk overwritten by the read ahead before it was hashed changes the hash.
    const bytes = randomBytes(6 * HASH_READ_BYTES + 12_345);
    const path = join(env.dir, "random.bin");
    await writeFile(path, bytes);
    const ops = createLocalOperations();
    const regions = new Set<ArrayBufferLike>();
    const seen: Pick<typeof ops, "openRead"> = {
      openRead: (file, options) =>
        ops.openRead(file, {
          ...options,
          into: (size) => {
            const region = options?.into?.(size);
            if (region) regions.add(region.buffer);
            return region;
          },
        }),
    };
    expect(await hashFile(seen, path)).toEqual({ sha256: sha256(bytes), size: bytes.length });
    // Two regions for the whole file, not one per chunk.
    expect(regions.size).toBe(2);
  });

  it("hashes an empty file and one smaller than a buffer", async () => {
    const ops = createLocalOperations();
    const empty = join(env.dir, "empty.bin");
    await writeFile(empty, "");
    expect(await hashFile(ops, empty)).toEqual({ sha256: sha256(Buffer.alloc(0)), size: 0 });
    const small = randomBytes(1000);
    const path = join(env.dir, "small.bin");
    await writeFile(path, small);
    expect(await hashFile(ops, path)).toEqual({ sha256: sha256(small), size: 1000 });
  });
});

describe("a large output through the bash tool", () => {
  it("keeps the artifact byte-exact, shows its last lines and records its hash from the background read", async () => {
    // About 21 MB of distinct lines: above INLINE_HASH_BYTES, so hashed after the result.
    const lines = 3_000_000;
    const outcome = await env.run(createBashToolDefinition(), { command: `seq 1 ${lines}` });
    expect(outcome.isError).toBe(false);
    const expected = Buffer.from(`${Array.from({ length: lines }, (_, i) => i + 1).join("\n")}\n`);
    expect(expected.length).toBeGreaterThan(INLINE_HASH_BYTES);
    const details = outcome.details as ShellToolDetails;
    const path = details.run?.artifact.path as string;
    expect(details.run?.totalBytes).toBe(expected.length);
    expect((await readFile(path)).equals(expected)).toBe(true);
    const text = textOf(outcome);
    expect(text).toContain(`\n${lines - 1}\n${lines}\n`);
    expect(text).not.toMatch(/^1\n2\n/);
    await vi.waitFor(
      () => expect(env.ctx.artifacts.list().find((a) => a.path === path)?.sha256).toBeTruthy(),
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    const listed = env.ctx.artifacts.list().find((a) => a.path === path);
    expect(listed?.sha256).toBe(sha256(expected));
    expect(listed?.size).toBe(expected.length);
  }, 60_000);
});
