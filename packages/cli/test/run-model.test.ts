// `tackle run --model` end to end: the spawned binary, the real @ai-sdk/anthropic and
// @ai-sdk/openai-compatible clients (loaded by the CLI on demand), and a local server on
// 127.0.0.1 speaking the providers' streaming wire formats (@tackle/ai-sdk/testing; the source of
// each wire-format sample is written at the top of its provider-server.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  anthropicHang,
  anthropicReply,
  openaiError,
  openaiReply,
  type ProviderServer,
  type ScriptedTurn,
  startProviderServer,
} from "@tackle/ai-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentScript } from "../src/script.js";
import { BIN, EXAMPLES, EXIT, isAlive, tackle, tempDir } from "./helpers.js";

/** The demo's scripted replies (examples/demo/script.json) as a real model would stream them. */
function demoTurns(): ScriptedTurn[] {
  const script = JSON.parse(
    fs.readFileSync(path.join(EXAMPLES, "demo", "script.json"), "utf8"),
  ) as AgentScript;
  return script.replies.map((reply, turn) => ({
    ...(reply.text === undefined ? {} : { text: reply.text }),
    calls: (reply.toolCalls ?? []).map((call, i) => ({
      id: `call_${turn}_${i}`,
      name: call.name,
      args: call.arguments,
    })),
  }));
}

let workspace: { dir: string; cleanup: () => void };
let server: ProviderServer | undefined;
beforeEach(() => {
  workspace = tempDir();
  fs.cpSync(path.join(EXAMPLES, "demo", "workspace"), workspace.dir, { recursive: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  workspace.cleanup();
});

const anthropicEnv = { ANTHROPIC_API_KEY: "sk-ant-test" };
const fixed = () => fs.readFileSync(path.join(workspace.dir, "src", "greet.mjs"), "utf8");

describe("tackle run --model", () => {
  it("anthropic: fixes the demo workspace, streaming text, each tool call with timing, and a summary", async () => {
    server = await startProviderServer(demoTurns().map((turn) => anthropicReply(turn)));
    const result = await tackle(
      [
        "run",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--tool-format",
        "tackle",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "Fix the failing test",
      ],
      { env: anthropicEnv },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(fixed()).toContain("return `Hello, $" + "{who}!`;");
    expect([...result.stdout.matchAll(/^→ (\w+)/gm)].map((m) => m[1])).toEqual([
      "grep",
      "read",
      "edit",
      "bash",
    ]);
    expect(result.stdout).toContain("assistant: I'll find where greet is defined.\n");
    expect(result.stdout).toMatch(/← bash ok \(\d+ ms\)\n( {2}│ .*\n)*? {2}│ greet: 1 test passed/);
    expect(result.stdout).toMatch(/^done: 5 turns, \d+ messages, 7,250 input \+ 210 output tokens, \d+ ms$/m);
    const first = server.requests[0]!;
    expect(first.headers["x-api-key"]).toBe("sk-ant-test");
    expect(first.body.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "Fix the failing test" }],
    });
    const system = first.body.system[0].text as string;
    expect(system).toContain(`Working directory: ${workspace.dir}`);
    expect(system).toMatch(/Available tools:\n- read: /);
    expect(first.body.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(
      ["bash", "edit", "find", "grep", "jobs", "ls", "read", "write"].sort(),
    );
  });

  it("openai-compatible with --base-url: the same fix over Chat Completions", async () => {
    server = await startProviderServer(demoTurns().map((turn) => openaiReply(turn, "qwen3")));
    const result = await tackle(
      [
        "run",
        "--model",
        "openai-compatible:qwen3",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "Fix the failing test",
      ],
      { env: { OPENAI_COMPATIBLE_API_KEY: "local-key", OPENAI_API_KEY: "" } },
    );
    expect(result.code).toBe(EXIT.ok);
    expect(fixed()).toContain("return `Hello, $" + "{who}!`;");
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer local-key");
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(result.stdout).toMatch(/^done: 5 turns, .*4,500 input \+ 150 output tokens/m);
  });

  it("--json prints the events as JSON lines; the task can come from stdin", async () => {
    server = await startProviderServer([anthropicReply({ text: "Nothing to do." })]);
    const result = await tackle(
      [
        "run",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--tool-format",
        "tackle",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "--json",
        "-",
      ],
      { env: anthropicEnv, input: "Say hello\n" },
    );
    expect(result.code).toBe(EXIT.ok);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events[0].type).toBe("agent_start");
    expect(events.at(-1).type).toBe("agent_end");
    const reply = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
    expect(reply.message).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "Nothing to do." }],
    });
    expect(server.requests[0]!.body.messages[0].content[0].text).toBe("Say hello");
  });

  it("--read-only and --tools choose the tools the model gets", async () => {
    server = await startProviderServer([anthropicReply({ text: "ok" }), anthropicReply({ text: "ok" })]);
    const base = [
      "run",
      "--model",
      "anthropic:claude-sonnet-4-5",
      "--tool-format",
      "tackle",
      "--base-url",
      `${server.url}/v1`,
      "--cwd",
      workspace.dir,
    ];
    expect((await tackle([...base, "--read-only", "Look"], { env: anthropicEnv })).code).toBe(EXIT.ok);
    expect((await tackle([...base, "--tools", "read,bash", "Look"], { env: anthropicEnv })).code).toBe(
      EXIT.ok,
    );
    const names = server.requests.map((r) => r.body.tools.map((tool: { name: string }) => tool.name).sort());
    expect(names).toEqual([
      ["find", "grep", "ls", "read"],
      ["bash", "jobs", "read"],
    ]);
    const writer = await tackle([...base, "--read-only", "--tools", "read,write", "x"], {
      env: anthropicEnv,
    });
    expect(writer.code).toBe(EXIT.usage);
    expect(writer.stderr).toContain("--read-only cannot serve write");
  });

  it("--max-turns stops before asking the model again, says so, and exits 1", async () => {
    const [first] = demoTurns();
    server = await startProviderServer([anthropicReply(first!), anthropicReply({ text: "never asked" })]);
    const result = await tackle(
      [
        "run",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--tool-format",
        "tackle",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "--max-turns",
        "1",
        "Fix it",
      ],
      { env: anthropicEnv },
    );
    expect(result.code).toBe(EXIT.toolError);
    expect(server.requests).toHaveLength(1);
    expect(result.stdout).toMatch(/^→ grep/m);
    expect(result.stdout).toContain(
      "model aborted: Stopped after 1 turn (--max-turns 1); the model was not asked again.",
    );
    // The stopped turn never reached the model: the summary counts the one that did.
    expect(result.stdout).toMatch(/^done: 1 turn, /m);
  });

  it("a provider error ends the run with the provider's message and exit 1", async () => {
    server = await startProviderServer([openaiError(401, "Incorrect API key provided: sk-bad.")]);
    const result = await tackle(
      [
        "run",
        "--model",
        "openai-compatible:m",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "hi",
      ],
      { env: {} },
    );
    expect(result.code).toBe(EXIT.toolError);
    expect(result.stdout).toContain("model error: Incorrect API key provided: sk-bad. (HTTP 401)");
  });

  it("usage errors: no key, no package, no task, both --model and --script", async () => {
    const noKey = await tackle(["run", "--model", "anthropic:claude-sonnet-4-5", "x"], {
      env: { ANTHROPIC_API_KEY: "" },
    });
    expect(noKey.code).toBe(EXIT.usage);
    expect(noKey.stderr).toContain("set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=...)");
    const noPackage = await tackle(["run", "--model", "cohere:command-r", "x"]);
    expect(noPackage.code).toBe(EXIT.usage);
    expect(noPackage.stderr).toContain(
      "needs @ai-sdk/cohere, which is not installed. Run: npm install @ai-sdk/cohere",
    );
    const noTask = await tackle(["run", "--model", "anthropic:claude-sonnet-4-5"], { env: anthropicEnv });
    expect(noTask.code).toBe(EXIT.usage);
    expect(noTask.stderr).toContain(
      'Say what to do: tackle run --model anthropic:claude-sonnet-4-5 "Fix the failing test"',
    );
    const both = await tackle(["run", "--model", "anthropic:x", "--script", "s.json"]);
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain("Give --model or --script, not both.");
  });
});

describe("tackle run --model and Ctrl-C", () => {
  /** Spawns tackle, resolves `until` when stdout matches, then SIGINT; returns how it ended. */
  function interruptWhen(args: string[], until: () => boolean | Promise<boolean>) {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...anthropicEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const poll = setInterval(async () => {
      if (await until()) {
        clearInterval(poll);
        child.kill("SIGINT");
      }
    }, 20);
    return exited.then((code) => {
      clearInterval(poll);
      return { code, stdout: () => stdout, stderr };
    });
  }

  it("aborts the streaming model request, prints the summary and exits", async () => {
    server = await startProviderServer([anthropicHang({ text: "Let me think about" })]);
    const url = `${server.url}/v1`;
    const ended = await interruptWhen(
      [
        "run",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--tool-format",
        "tackle",
        "--base-url",
        url,
        "--cwd",
        workspace.dir,
        "Fix it",
      ],
      () => server!.requests.length === 1,
    );
    await server.clientLeft;
    expect(ended.code).toBe(EXIT.toolError);
    expect(ended.stdout()).toContain("model aborted: Request was aborted.");
    expect(ended.stdout()).toMatch(/^done: 1 turn, /m);
    expect(ended.stdout()).toContain(
      "interrupted: the model request was aborted and running tools were stopped.",
    );
  });

  it("ends the running tool's whole process tree, prints the summary and exits", async () => {
    const pidFile = path.join(workspace.dir, "child.pid");
    server = await startProviderServer([
      anthropicReply({
        calls: [{ id: "toolu_1", name: "bash", args: { command: `sleep 300 & echo $! > ${pidFile}; wait` } }],
      }),
    ]);
    const ended = await interruptWhen(
      [
        "run",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--tool-format",
        "tackle",
        "--base-url",
        `${server.url}/v1`,
        "--cwd",
        workspace.dir,
        "Wait",
      ],
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() !== "",
    );
    const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
    expect(ended.code).toBe(EXIT.toolError);
    expect(ended.stdout()).toMatch(/← bash error/);
    expect(ended.stdout()).toContain("interrupted:");
    expect(isAlive(pid)).toBe(false);
  });
});
