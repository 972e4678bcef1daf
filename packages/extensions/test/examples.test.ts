import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import { Agent, invokeTool } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolSession, ToolUI } from "../src/context.js";
import { createHeadlessUI } from "../src/defaults.js";
import { defineTool } from "../src/define-tool.js";
import { ExtensionRunner } from "../src/runner.js";
import { createTestContext } from "./support/context.js";
import { bashDefinition, scriptedUI, writeDefinition } from "./support/inline-tools.js";

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../examples/extensions");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-examples-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runnerWith(files: string[], ui: ToolUI = createHeadlessUI()) {
  const runner = new ExtensionRunner({
    context: () => createTestContext(dir, { ui }),
    builtinTools: [bashDefinition, writeDefinition],
    cwd: examples,
  });
  const result = await runner.load(files.map((file) => `./${file}`));
  expect(result.errors).toEqual([]);
  return runner;
}

/** Runs one scripted call through a real Agent wired to the runner; returns the tool result message. */
async function callThrough(runner: ExtensionRunner, name: string, args: Record<string, unknown>) {
  const faux = createFauxModel([{ content: [fauxToolCall(name, args)] }, "ok"]);
  const agent = new Agent({
    ...faux,
    tools: runner.tools(),
    beforeToolCall: runner.beforeToolCall,
    afterToolCall: runner.afterToolCall,
  });
  await agent.prompt("go");
  const result = agent.state.messages.find((m) => m.role === "toolResult");
  if (result?.role !== "toolResult") throw new Error("no tool result");
  return { ...result, text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("") };
}

const exists = (file: string) =>
  stat(path.join(dir, file)).then(
    () => true,
    () => false,
  );

describe("example: permission gate (loaded from disk as TypeScript)", () => {
  it("asks before a destructive command and blocks it when the person says no", async () => {
    await mkdir(path.join(dir, "build"));
    const ui = scriptedUI([false]);
    const runner = await runnerWith(["permission-gate.ts"], ui);
    const result = await callThrough(runner, "bash", { command: "rm -rf build" });
    expect(ui.asked).toEqual([
      "Run a destructive command? rm -rf build\n(it deletes files recursively or forcibly)",
    ]);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      "Blocked: the user did not allow `rm -rf build` (it deletes files recursively or forcibly). Ask the user, or use a non-destructive alternative.",
    );
    expect(await exists("build")).toBe(true);
  });

  it("runs the destructive command when the person says yes, and never asks for harmless ones", async () => {
    await mkdir(path.join(dir, "build"));
    const ui = scriptedUI([true]);
    const runner = await runnerWith(["permission-gate.ts"], ui);
    expect((await callThrough(runner, "bash", { command: "ls" })).text).toBe("build\n[exit 0]");
    expect(ui.asked).toEqual([]);
    expect((await callThrough(runner, "bash", { command: "rm -rf build" })).isError).toBe(false);
    expect(ui.asked).toHaveLength(1);
    expect(await exists("build")).toBe(false);
  });

  it("blocks headless (the default UI denies)", async () => {
    const runner = await runnerWith(["permission-gate.ts"]);
    const result = await callThrough(runner, "bash", { command: "git reset --hard HEAD~3" });
    expect(result.text).toContain("Blocked: the user did not allow `git reset --hard HEAD~3`");
  });
});

describe("example: protected paths", () => {
  it.each([".env", "config/../.env.local", ".git/config", "./.git/hooks/pre-commit"])(
    "blocks a write to %s",
    async (target) => {
      await mkdir(path.join(dir, "config"));
      const runner = await runnerWith(["protected-paths.ts"]);
      const result = await callThrough(runner, "write", { path: target, content: "x" });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /^Blocked: \S+ is protected \((it holds secrets|it is git's internal state)\)\./,
      );
    },
  );

  it("blocks a write through a link whose real path is .env", async () => {
    await writeFile(path.join(dir, ".env"), "TOKEN=1\n");
    await symlink(".env", path.join(dir, "innocent.txt"));
    const runner = await runnerWith(["protected-paths.ts"]);
    const result = await callThrough(runner, "write", { path: "innocent.txt", content: "x" });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Blocked: innocent.txt is protected \(it holds secrets\)\./);
    expect(await readFile(path.join(dir, ".env"), "utf8")).toBe("TOKEN=1\n");
  });

  it("lets ordinary writes through, including names that only look similar", async () => {
    const runner = await runnerWith(["protected-paths.ts"]);
    for (const file of ["notes.env", "env.md", "gitignore.txt"]) {
      const result = await callThrough(runner, "write", { path: file, content: "ok" });
      expect(result.isError).toBe(false);
      expect(await readFile(path.join(dir, file), "utf8")).toBe("ok");
    }
  });
});

describe("example: custom tool", () => {
  it("registers count, which reads through the context and adds its prompt lines", async () => {
    await writeFile(path.join(dir, "poem.txt"), "one two\nthree\n");
    const runner = await runnerWith(["custom-tool.ts"]);
    const result = await callThrough(runner, "count", { path: "poem.txt" });
    expect(result.text).toBe("poem.txt: 2 lines, 3 words, 14 bytes");
    expect(result.details).toEqual({ path: "poem.txt", lines: 2, words: 3, bytes: 14 });
    expect(runner.systemPrompt()).toContain("- count: Count lines, words and bytes of a file");
    expect(runner.systemPrompt()).toContain("- Use count before reading a file you expect to be large.");
  });

  it("streams: a word split across chunks counts once, a last line without newline counts, UTF-8 is decoded", async () => {
    // The test context streams 7-byte chunks: "abcdefg|hij klm|..." and "é" is split in two.
    await writeFile(path.join(dir, "long.txt"), "abcdefghij klm\nno end ééé");
    const runner = await runnerWith(["custom-tool.ts"]);
    const result = await callThrough(runner, "count", { path: "long.txt" });
    expect(result.details).toEqual({ path: "long.txt", lines: 2, words: 5, bytes: 28 });
  });
});

describe("example: tool override routing a tool to another environment", () => {
  it("runs bash in the target environment while other tools stay, with the same tool objects elsewhere", async () => {
    const sandbox = await mkdtemp(path.join(tmpdir(), "tackle-sandbox-"));
    try {
      await writeFile(path.join(sandbox, "only-in-sandbox.txt"), "");
      const { routeToEnvironment } = await import(path.join(examples, "route-to-environment.ts"));
      const target: ToolSession = createTestContext(sandbox, { id: "sandbox" });
      const runner = new ExtensionRunner({
        context: () => createTestContext(dir),
        builtinTools: [bashDefinition, writeDefinition],
      });
      const loaded = await runner.load([routeToEnvironment(bashDefinition, { name: "sandbox", ...target })]);
      expect(loaded.loaded).toEqual(["route-bash-to-sandbox"]);
      const tools = runner.tools();
      const bash = tools.find((t) => t.name === "bash")!;
      expect(bash.description).toContain(`Runs in the sandbox environment (working directory ${sandbox}).`);
      expect((await invokeTool(bash, { command: "ls" })).content).toEqual([
        { type: "text", text: "only-in-sandbox.txt\n[exit 0]" },
      ]);
      const write = tools.find((t) => t.name === "write")!;
      await invokeTool(write, { path: "local.txt", content: "here" });
      expect(await readFile(path.join(dir, "local.txt"), "utf8")).toBe("here");

      // What is bound to the environment moves with it; the person's UI and the session stay.
      const seen: Record<string, unknown> = {};
      const probe = defineTool({
        name: "probe",
        label: "Probe",
        description: "Reports its context.",
        annotations: {},
        parameters: Type.Object({}),
        async execute(_id, _params, _signal, _onUpdate, ctx) {
          Object.assign(seen, ctx);
          return { content: [{ type: "text", text: "ok" }], details: {} };
        },
      });
      const ui = createHeadlessUI();
      const home = createTestContext(dir, { ui, sessionId: "home-session" });
      const probeRunner = new ExtensionRunner({ context: () => home, builtinTools: [probe] });
      await probeRunner.load([routeToEnvironment(probe, { name: "sandbox", ...target })]);
      await invokeTool(probeRunner.tools()[0]!, {});
      for (const key of ["cwd", "operations", "workspace", "mutations", "artifacts", "reads"] as const) {
        expect(seen[key], key).toBe(target[key]);
      }
      expect(seen.ui).toBe(ui);
      expect(seen.session).toEqual({ id: "home-session" });
    } finally {
      await rm(sandbox, { recursive: true, force: true });
    }
  });
});
