import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import type { Operations, SandboxOptions } from "@tackle/operations";
import { createArtifactStore } from "@tackle/session";
import { createToolContext } from "../context/create-tool-context.js";
import { createBashToolDefinition } from "../tools/bash.js";

/** A value that appears nowhere unless a planted secret was read (no redaction rule knows it). */
export const PLANTED = `planted-${process.pid}-${Date.now().toString(36)}`;

/** Secrets planted in the fake home, relative to it. */
export const PLANTED_FILES = [
  ".ssh/id_ed25519",
  ".aws/credentials",
  ".config/gh/hosts.yml",
  ".netrc",
  ".docker/config.json",
  ".git-credentials",
] as const;

/**
 * A workspace, a directory beside it (outside), and a fake home with planted secrets, all in a
 * fresh temp dir; the bash tool runs with `HOME` set to the fake home, in the sandbox.
 */
export interface SandboxTestEnv {
  dir: string;
  workspace: string;
  outside: string;
  home: string;
  /** Runs the bash tool with the given sandbox (default: network off). */
  bash(
    command: string,
    sandbox?: SandboxOptions | false,
    background?: boolean,
  ): Promise<{ outcome: ToolOutcome; text: string; ran: boolean; sandboxed: string | undefined }>;
  dispose(): Promise<void>;
}

/**
 * The environment the bash tool runs on: its operations (whose commands see `HOME` = `home`) and
 * how to end them.
 */
export type SandboxTestOperations = (
  home: string,
) => Promise<{ operations: Operations; dispose(): Promise<void> }>;

/**
 * A fresh {@link SandboxTestEnv} on the operations `makeOperations` gives (commands must see the
 * env's fake home as `HOME`).
 */
export async function createSandboxTestEnv(makeOperations: SandboxTestOperations): Promise<SandboxTestEnv> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-sandbox-test-")));
  const workspace = join(dir, "ws");
  const outside = join(dir, "outside");
  const home = join(dir, "home");
  for (const path of [workspace, outside, home, join(dir, "artifacts")])
    await mkdir(path, { recursive: true });
  await writeFile(join(outside, "existing.txt"), "original\n");
  for (const file of PLANTED_FILES) {
    await mkdir(join(home, file, ".."), { recursive: true });
    await writeFile(join(home, file), `${PLANTED}\n`, { mode: 0o600 });
  }
  const environment = await makeOperations(home);
  const operations = environment.operations;
  const artifacts = createArtifactStore({
    operations,
    sessionId: "sandbox",
    baseDir: join(dir, "artifacts"),
  });
  const ctx = createToolContext({ cwd: workspace, operations, artifacts });
  const tools = new Map<string, ReturnType<typeof wrapToolDefinition>>();
  const toolFor = (sandbox: SandboxOptions | false) => {
    const key = JSON.stringify(sandbox);
    let tool = tools.get(key);
    if (!tool) {
      tool = wrapToolDefinition(createBashToolDefinition({ sandbox, killGraceMs: 500 }), () => ctx);
      tools.set(key, tool);
    }
    return tool;
  };
  return {
    dir,
    workspace,
    outside,
    home,
    async bash(command, sandbox = { network: "off" }, background = false) {
      const outcome = await invokeTool(
        toolFor(sandbox),
        { command, timeout: 60, ...(background ? { background } : {}) },
        {},
      );
      const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const run = (outcome.details as { run?: { sandbox?: { mechanism: string } } } | undefined)?.run;
      return { outcome, text, ran: run !== undefined, sandboxed: run?.sandbox?.mechanism };
    },
    async dispose() {
      await artifacts.dispose();
      await environment.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP server on 127.0.0.1 that counts the connections it accepted (answers HTTP 200). */
export async function startCountingServer(): Promise<{
  port: number;
  connections: () => number;
  close(): Promise<void>;
}> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.on("error", () => undefined);
    // Read (and drop) the request: an unread socket never sees the peer's end and stays open.
    socket.resume();
    socket.end("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A `sleep` of the test itself (outside any sandbox), to be signalled or traced from inside. */
export function startVictim(): { pid: number; stop(): void } {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  return {
    pid: child.pid!,
    stop: () => {
      try {
        process.kill(child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    },
  };
}
