/**
 * Language-server diagnostics after edit and write: real typescript-language-server and pyright
 * processes, started through the local adapter's exec by the relay, a deliberately slow server
 * for the budget, and the session's dispose ending them.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import {
  createLanguageServerDiagnostics,
  type LanguageServerDiagnostics,
  type LanguageServerSpec,
} from "../src/diagnostics/language-server.js";
import { PYRIGHT_LANGUAGE_SERVER, TYPESCRIPT_LANGUAGE_SERVER } from "../src/diagnostics/servers.js";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition, type EditDetails } from "../src/tools/edit.js";
import { createWriteToolDefinition, type WriteDetails } from "../src/tools/write.js";

const require = createRequire(import.meta.url);
const bin = (name: string) => join(dirname(require.resolve("../package.json")), "node_modules", ".bin", name);
const tsserver = require.resolve("typescript/lib/tsserver.js");

/** The two tested servers, started from this package's devDependencies. */
const typescriptServer: LanguageServerSpec = {
  ...TYPESCRIPT_LANGUAGE_SERVER,
  command: `${bin("typescript-language-server")} --stdio`,
  initializationOptions: { tsserver: { path: tsserver } },
};
const pyrightServer: LanguageServerSpec = {
  ...PYRIGHT_LANGUAGE_SERVER,
  command: `${bin("pyright-langserver")} --stdio`,
};

let dir: string;
let context: ToolContext;
let edit: AnyAgentTool;
let write: AnyAgentTool;

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");

function session(server: LanguageServerSpec, budgetMs = 60_000): LanguageServerDiagnostics {
  const operations = createLocalOperations();
  const provider = createLanguageServerDiagnostics({ operations, cwd: dir, server });
  context = createLocalToolContext({ cwd: dir, diagnostics: { providers: [provider], budgetMs } });
  edit = wrapToolDefinition(createEditToolDefinition(), () => context);
  write = wrapToolDefinition(createWriteToolDefinition(), () => context);
  return provider;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-lsp-"));
});

afterEach(async () => {
  await context?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe("language-server diagnostics (local)", () => {
  it("typescript-language-server: a type error after edit, listed with its code and line; the fix clears it", async () => {
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
    );
    await writeFile(join(dir, "count.ts"), "export const count: number = 1;\nexport const name = 'n';\n");
    const provider = session(typescriptServer);
    const broken = await invokeTool(edit, {
      path: "count.ts",
      edits: [{ oldText: "count: number = 1;", newText: 'count: number = "one";' }],
    });
    const server = (broken.details as EditDetails).feedback?.server;
    expect(server).toMatchObject({ status: "checked", provider: "typescript", errors: 1 });
    expect(server?.items[0]).toMatchObject({ line: 1, severity: "error", code: "2322" });
    expect(server?.items[0]?.path).toBe(join(context.cwd, "count.ts"));
    expect((broken.details as EditDetails).feedback?.codes).toEqual(["diagnostics_errors"]);
    expect(text(broken)).toContain("typescript reports 1 error after this change:\n  count.ts:1:");
    const pid = provider.serverPid as number;
    expect(alive(pid)).toBe(true);

    const fixed = await invokeTool(edit, {
      path: "count.ts",
      edits: [{ oldText: 'count: number = "one";', newText: "count: number = 2;" }],
    });
    expect((fixed.details as EditDetails).feedback).toMatchObject({
      codes: [],
      server: { status: "checked", errors: 0, items: [] },
    });
    // Clean to clean: the server publishes nothing; its silence counts as "still clean".
    const still = await invokeTool(edit, {
      path: "count.ts",
      edits: [{ oldText: "count: number = 2;", newText: "count: number = 3;" }],
    });
    expect((still.details as EditDetails).feedback).toMatchObject({
      codes: [],
      server: { status: "checked", errors: 0, items: [] },
    });
    // The same server answered every call: kept warm for the session.
    expect(provider.serverPid).toBe(pid);
    await context.dispose();
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000 });
  }, 120_000);

  it("pyright: a type error after write, at its line, errors before warnings", async () => {
    const provider = session(pyrightServer);
    const outcome = await invokeTool(write, {
      path: "app.py",
      content: 'import os\n\n\ndef size(path: str) -> int:\n    return "big"\n',
    });
    const server = (outcome.details as WriteDetails).feedback?.server;
    expect(server).toMatchObject({ status: "checked", provider: "pyright" });
    expect(server?.errors).toBeGreaterThanOrEqual(1);
    expect(server?.items[0]).toMatchObject({ line: 5, severity: "error", source: "Pyright" });
    expect(text(outcome)).toMatch(/pyright reports 1 error.*after this change:\n {2}app\.py:5:/);
    const pid = provider.serverPid as number;
    await context.dispose();
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000 });
  }, 120_000);
});

describe("language-server diagnostics: the time budget", () => {
  it("a server that does not answer in time: the result says diagnostics were skipped, without waiting for it", async () => {
    const slow: LanguageServerSpec = {
      name: "slowls",
      command: `${process.execPath} ${JSON.stringify(join(import.meta.dirname, "fixtures", "slow-lsp-server.mjs"))}`,
      extensions: [".ts"],
      languageId: () => "typescript",
    };
    const provider = session(slow, 400);
    await writeFile(join(dir, "a.ts"), "export const a = 1;\n");
    const first = await invokeTool(edit, { path: "a.ts", edits: [{ oldText: "= 1", newText: "= 2" }] });
    expect((first.details as EditDetails).feedback).toMatchObject({
      codes: ["diagnostics_skipped"],
      server: { status: "skipped", reason: "budget", provider: "slowls" },
    });
    expect(text(first)).toContain("slowls diagnostics skipped: no answer within 400 ms.");
    // The change itself is written, and the server is still working on it: nobody waited for it.
    await vi.waitFor(() => expect(provider.serverPid).toBeDefined(), { timeout: 30_000 });
    const second = await invokeTool(edit, { path: "a.ts", edits: [{ oldText: "= 2", newText: "= 3" }] });
    expect((second.details as EditDetails).feedback?.server).toMatchObject({
      status: "skipped",
      reason: "budget",
    });
    expect(alive(provider.serverPid as number)).toBe(true);
  }, 60_000);
});
