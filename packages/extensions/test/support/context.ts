import { createReadStream } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";
import type { Logger, ReadRecord, ToolSession, ToolUI } from "../../src/context.js";
import { createHeadlessUI } from "../../src/defaults.js";
import { SessionState } from "../../src/session-state.js";

/** Lines a {@link recordingLogger} received. */
export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
}

export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const log = (level: LogLine["level"]) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/**
 * A small real session for tests: files through node:fs under `cwd`, a path policy that keeps
 * writes inside `cwd`, a pass-through mutation queue and an in-memory read ledger. (The real
 * ones live in @tackle/tools; these only implement the interfaces.)
 */
export function createTestContext(
  cwd: string,
  options: { ui?: ToolUI; logger?: Logger; sessionId?: string; id?: string } = {},
): ToolSession {
  const reads = new Map<string, ReadRecord>();
  const roots = [cwd];
  const operations = {
    id: options.id ?? "test-local",
    platform: "linux",
    readFile: async (file: string) => new Uint8Array(await readFile(file)),
    // Small chunks, so a consumer's handling of chunk boundaries is exercised.
    openRead: async function* (file: string) {
      for await (const chunk of createReadStream(file, { highWaterMark: 7 })) yield new Uint8Array(chunk);
    },
    writeFile: async (file: string, data: Uint8Array | string) => writeFile(file, data),
  } as unknown as Operations;
  const logger = options.logger ?? recordingLogger();
  return {
    cwd,
    operations,
    workspace: {
      roots,
      outside: "deny",
      async resolve(input) {
        const absolute = path.resolve(cwd, input);
        const inside = roots.some((root) => absolute === root || absolute.startsWith(`${root}/`));
        if (!inside) throw new ToolError("outside_workspace", `Path is outside the workspace: ${absolute}`);
        const display = path.relative(cwd, absolute) || ".";
        // Links resolved like the real policy does (a missing file keeps its own path).
        const real = await realpath(absolute).catch(() => absolute);
        return { absolute, real, display, exists: true, insideWorkspace: inside };
      },
      addRoot(root) {
        roots.push(root);
      },
      setRoots(next) {
        roots.splice(0, roots.length, ...next);
      },
    },
    mutations: {
      withFileMutation: (_path, fn) => fn(),
      withExclusive: (fn) => fn(),
    },
    artifacts: {
      directory: async () => cwd,
      create: async () => {
        throw new ToolError("not_supported", "No artifacts in tests.");
      },
      finalize() {},
      list: () => [],
      dispose: async () => {},
    },
    reads: {
      record: (file, sha256) => reads.set(file, { path: file, sha256, readAt: Date.now() }),
      get: (file) => reads.get(file),
      forget: (file) => reads.delete(file),
    },
    ui: options.ui ?? createHeadlessUI(logger),
    logger,
    session: { id: options.sessionId ?? "test-session" },
    state: new SessionState(),
  };
}
