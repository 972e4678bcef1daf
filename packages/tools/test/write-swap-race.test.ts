/**
 * The write tool racing an attacker who swaps a workspace directory for a link to outside and
 * back, over and over: the path policy and its re-check pass while the directory is real, so
 * only the adapter's pinned write (`within` the workspace root) keeps the file inside.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { createWriteToolDefinition } from "../src/tools/write.js";

/**
 * The adapter package's swapper (one copy for both suites): the directory goes away, a link to
 * outside takes its name for about a millisecond, then the directory comes back, until killed.
 */
const SWAPPER = fileURLToPath(new URL("../../operations-local/test/fixtures/swap-dir.mjs", import.meta.url));

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((path) => rm(path, { recursive: true, force: true })));
});

async function scratch(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

describe("write racing a directory swapped for a link to outside", () => {
  it("100 writes: none lands outside the workspace, each one is written or refused with a code", async () => {
    const root = await scratch("tackle-race-ws-");
    const outside = await scratch("tackle-race-out-");
    const sub = join(root, "sub");
    await mkdir(sub);
    const swapper = spawn(process.execPath, [SWAPPER, sub, outside], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => swapper.once("exit", resolve));
    const codes: string[] = [];
    try {
      await new Promise((resolve) => swapper.stdout.once("data", resolve));
      const ctx = createLocalToolContext({ cwd: root });
      const write = wrapToolDefinition(createWriteToolDefinition(), () => ctx);
      for (let i = 0; i < 100; i++) {
        const outcome = await invokeTool(write, { path: `sub/f${i}.txt`, content: `file ${i}\n` });
        codes.push(outcome.isError ? (outcome.errorCode ?? "no code") : "written");
      }
    } finally {
      swapper.kill("SIGKILL");
      await exited;
    }
    expect(await readdir(outside, { recursive: true })).toEqual([]);
    expect(codes.filter((code) => !["written", "outside_workspace", "not_found"].includes(code))).toEqual([]);
    // Every written file is somewhere in the workspace (the swaps and the tool's mkdir may have
    // moved directories around inside it); no temp file is left anywhere.
    const files = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    const written = codes.flatMap((code, i) => (code === "written" ? [`f${i}.txt`] : []));
    expect(files.sort()).toEqual(written.sort());
  }, 120_000);
});
