/** No tool opens a FIFO, socket or device: they refuse with `special_file` instead of blocking. */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition } from "../src/tools/edit.js";
import { createGrepToolDefinition } from "../src/tools/grep.js";
import { createWriteToolDefinition } from "../src/tools/write.js";

const FIFO_CALLS = fileURLToPath(new URL("./fixtures/fifo-calls.mjs", import.meta.url));
/** How long a child that printed "ready" may take to finish; a wedged one never does. */
const HANG_MS = 15_000;

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-special-")));
  execFileSync("mkfifo", [join(dir, "pipe")]);
  await writeFile(join(dir, "plain.txt"), "plain\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the fixture; resolves with its output lines and whether it finished before `HANG_MS` after "ready". */
function runFifoCalls(): Promise<{ lines: string[]; finished: boolean }> {
  const child = spawn(process.execPath, [FIFO_CALLS, dir], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve) => {
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    const lines = () => text.split("\n").filter(Boolean);
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (!timer && lines().includes("ready")) {
        timer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ lines: lines(), finished: code === 0 });
    });
  });
}

describe("FIFOs, sockets and devices", () => {
  it("write, edit and grep refuse a FIFO with special_file, and the FIFO stays", async () => {
    const ctx = createLocalToolContext({ cwd: dir });
    const write = wrapToolDefinition(createWriteToolDefinition(), () => ctx);
    const edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
    const grep = wrapToolDefinition(createGrepToolDefinition(), () => ctx);
    const outcomes = [
      await invokeTool(write, { path: "pipe", content: "x" }),
      await invokeTool(edit, { path: "pipe", edits: [{ oldText: "a", newText: "b" }] }),
      await invokeTool(grep, { pattern: "x", path: "pipe" }),
    ];
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ isError: true, errorCode: "special_file" });
      expect(outcome.content[0]).toMatchObject({
        text: expect.stringContaining("pipe is a FIFO, socket or device"),
      });
    }
    expect(execFileSync("stat", ["-c", "%F", join(dir, "pipe")], { encoding: "utf8" }).trim()).toBe("fifo");
  });

  it("grep over a directory holding a FIFO skips it and finds the rest", async () => {
    const ctx = createLocalToolContext({ cwd: dir });
    const grep = wrapToolDefinition(createGrepToolDefinition(), () => ctx);
    const outcome = await invokeTool(grep, { pattern: "plain" });
    expect(outcome.isError).toBe(false);
    expect(outcome.content[0]).toMatchObject({ text: expect.stringContaining("plain.txt:1:") });
  });

  it("four given-up calls on a FIFO leave the process's file calls working (no threadpool wedge)", async () => {
    const { lines, finished } = await runFifoCalls();
    expect(finished, `the child hung after: ${lines.join(", ")}`).toBe(true);
    // Each call is refused at once; on a loaded machine one may be given up first, which is
    // harmless exactly when it left no blocked open behind: then the read still completes.
    expect(lines[0]).toBe("ready");
    expect(lines.at(-1)).toBe("read-ok");
    expect(lines.slice(1, -1).filter((line) => line !== "special_file" && line !== "aborted")).toEqual([]);
    expect(lines).toHaveLength(6);
  }, 60_000);
});
