import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";

// The repository's main job until the CLI lands: `node examples/loop-demo.mjs` (scripts/demo.sh).
const demo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../examples/loop-demo.mjs");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-demo-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("the loop demo runs as a real process: the faux model lists a real directory and answers from it", async () => {
  await mkdir(path.join(dir, "src"));
  await writeFile(path.join(dir, "README.md"), "hi");
  await writeFile(path.join(dir, "package.json"), "{}");
  const { stdout } = await promisify(execFile)(process.execPath, [demo, dir], { timeout: 60_000 });
  expect(stdout).toContain(`tool call      ls {"path":"${dir}","limit":"20"}`);
  expect(stdout).toContain("tool result    src/, package.json, README.md");
  expect(stdout).toContain(
    `Final answer: ${path.basename(dir)} holds 3 entries, for example src/, package.json, README.md.`,
  );
  expect(stdout.indexOf("agent_start")).toBeLessThan(stdout.indexOf("agent_end"));
});
