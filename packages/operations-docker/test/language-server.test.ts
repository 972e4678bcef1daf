/**
 * Language-server diagnostics inside a container: the relay and real typescript-language-server
 * and pyright processes run in the container, reached only through the Docker adapter (exec with
 * streamed stdout, files through the archive API). The minimal test image has no node: the host's
 * node binary, its shared libraries and this checkout (for the servers' node_modules) are bound
 * in read-only at the same paths.
 */
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import {
  createLanguageServerDiagnostics,
  createToolContext,
  createToolDefinition,
  type LanguageServerSpec,
  PYRIGHT_LANGUAGE_SERVER,
  type ToolContext,
  TYPESCRIPT_LANGUAGE_SERVER,
  type WriteDetails,
} from "@tackle/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

const repo = resolve(import.meta.dirname, "..", "..", "..");
const toolsRequire = createRequire(join(repo, "packages", "tools", "package.json"));
const toolsBin = (name: string) => join(repo, "packages", "tools", "node_modules", ".bin", name);
const node = process.execPath;
/** Where the host's node finds its libraries (Debian: the multiarch directory). */
const hostLibraries = "/usr/lib/x86_64-linux-gnu";

let container: SessionContainer | undefined;

beforeAll(async () => {
  container = await startTestContainer({
    binds: [`${repo}:${repo}:ro`, `${node}:${node}:ro`, `${hostLibraries}:/lib/x86_64-linux-gnu:ro`],
  });
}, 120_000);

afterAll(async () => {
  await container?.dispose();
});

/** A session in the container whose provider runs `server`; node and the servers come from the bound checkout. */
async function session(server: LanguageServerSpec): Promise<{ context: ToolContext; cwd: string }> {
  if (!container) throw new Error("the test container did not start: see the beforeAll error");
  const cwd = `/tmp/project-${server.name}`;
  await container.mkdir(cwd, { recursive: true });
  const provider = createLanguageServerDiagnostics({
    operations: container,
    cwd,
    server,
    node,
    env: { PATH: `${dirname(node)}:/bin:/usr/bin` },
  });
  return {
    context: createToolContext({
      cwd,
      operations: container,
      diagnostics: { providers: [provider], budgetMs: 60_000 },
    }),
    cwd,
  };
}

describe("language-server diagnostics in a container", () => {
  it("typescript-language-server in the container reports a type error after write", async () => {
    const { context, cwd } = await session({
      ...TYPESCRIPT_LANGUAGE_SERVER,
      command: `${toolsBin("typescript-language-server")} --stdio`,
      initializationOptions: { tsserver: { path: toolsRequire.resolve("typescript/lib/tsserver.js") } },
    });
    try {
      const write = wrapToolDefinition(createToolDefinition("write"), () => context);
      const outcome = await invokeTool(write, {
        path: "count.ts",
        content: 'export const count: number = "one";\n',
      });
      const server = (outcome.details as WriteDetails).feedback?.server;
      expect(server).toMatchObject({ status: "checked", provider: "typescript", errors: 1 });
      expect(server?.items[0]).toMatchObject({ path: `${cwd}/count.ts`, line: 1, code: "2322" });
    } finally {
      await context.dispose();
    }
  }, 120_000);

  it("pyright in the container reports a type error after write; dispose ends it", async () => {
    const { context, cwd } = await session({
      ...PYRIGHT_LANGUAGE_SERVER,
      command: `${toolsBin("pyright-langserver")} --stdio`,
    });
    const write = wrapToolDefinition(createToolDefinition("write"), () => context);
    const outcome = await invokeTool(write, {
      path: "app.py",
      content: 'def size() -> int:\n    return "big"\n',
    });
    const server = (outcome.details as WriteDetails).feedback?.server;
    expect(server).toMatchObject({ status: "checked", provider: "pyright", errors: 1 });
    expect(server?.items[0]).toMatchObject({ path: `${cwd}/app.py`, line: 2, severity: "error" });
    await context.dispose();
    // Nothing of the server is left running in the container.
    const leftover = async () => {
      let out = "";
      await container?.exec("ps -o args | grep -c '[p]yright' || true", {
        shell: "bash",
        cwd: "/",
        onChunk: (chunk) => {
          out += Buffer.from(chunk.bytes).toString();
        },
      });
      return Number(out.trim());
    };
    await vi.waitFor(async () => expect(await leftover()).toBe(0), { timeout: 15_000 });
  }, 120_000);
});
