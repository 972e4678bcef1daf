import { execFile } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("./fixtures/policy-lazy-load.mjs", import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-policy-lazy-")));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the shell policy's parser", () => {
  it("is loaded by the first command checked, not by importing the tools or making a shell tool", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE, dir], { timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "null")).toEqual({
      afterCreate: false,
      afterCommand: true,
      isError: false,
    });
  }, 90_000);
});
