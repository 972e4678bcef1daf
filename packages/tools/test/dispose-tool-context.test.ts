import { mkdtemp, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { createArtifactStore } from "@tackle/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { disposeToolContext } from "../src/context/dispose-tool-context.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { alive, endPid, readPidFile } from "./shell-helpers.js";

let dir: string;
const pids: number[] = [];
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-dispose-")));
});
afterEach(async () => {
  for (const pid of pids.splice(0)) endPid(pid);
  await rm(dir, { recursive: true, force: true });
});

function session() {
  const operations = createLocalOperations();
  const ctx = createToolContext({
    cwd: dir,
    operations,
    artifacts: createArtifactStore({ operations, sessionId: "dispose-test", baseDir: dir }),
  });
  const bash = wrapToolDefinition(createBashToolDefinition({ killGraceMs: 300 }), () => ctx);
  return { ctx, bash };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe("disposeToolContext", () => {
  it("ends background jobs not marked keepAlive and removes the session's artifacts", async () => {
    const { ctx, bash } = session();
    const short = await invokeTool(bash, {
      command: "echo $$ > short.pid; exec sleep 100",
      background: true,
    });
    const kept = await invokeTool(bash, {
      command: "echo $$ > kept.pid; exec sleep 100",
      background: true,
      keepAlive: true,
    });
    expect(short.isError).toBe(false);
    expect(kept.isError).toBe(false);
    const shortPid = await readPidFile(join(dir, "short.pid"));
    const keptPid = await readPidFile(join(dir, "kept.pid"));
    pids.push(shortPid, keptPid);
    const foreground = await invokeTool(bash, { command: "seq 1 5" });
    expect(foreground.isError).toBe(false);
    const artifactDir = await ctx.artifacts.directory();
    expect(await exists(artifactDir)).toBe(true);

    await disposeToolContext(ctx);

    expect(alive(shortPid)).toBe(false);
    expect(alive(keptPid)).toBe(true);
    expect(await exists(artifactDir)).toBe(false);
  });

  it("keeps artifacts when asked, for hosts whose printed output points at them", async () => {
    const { ctx, bash } = session();
    await invokeTool(bash, { command: "seq 1 3" });
    const artifactDir = await ctx.artifacts.directory();
    await disposeToolContext(ctx, { keepArtifacts: true });
    expect(await exists(artifactDir)).toBe(true);
  });

  it("is harmless on a context that never ran a job", async () => {
    const { ctx } = session();
    await expect(disposeToolContext(ctx)).resolves.toBeUndefined();
  });
});
