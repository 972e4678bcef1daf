// `tackle run --model` with the providers' own tool sets (--tool-format): the spawned binary, the
// real @ai-sdk/openai (Responses) and @ai-sdk/anthropic clients, and the local server speaking
// their streaming wire formats. A model trained on its provider's tools gets them by default and
// fixes the demo with them; --tool-format tackle keeps Tackle's set; the choice is checked.
import fs from "node:fs";
import path from "node:path";
import {
  anthropicReply,
  openaiReply,
  openaiResponsesReply,
  type ProviderServer,
  startProviderServer,
} from "@tackle/ai-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseNativeSet, type ToolFormatRequest } from "../src/commands/run-tools.js";
import { EXAMPLES, EXIT, expectUsageError, tackle, tempDir } from "./helpers.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the demo source's own template literal
const BUGGY_LINE = "return `Hello, ${who}`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the fixed line of the demo source
const FIXED_LINE = "return `Hello, ${who}!`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: a line a model misremembers
const WRONG_LINE = "return `Hi, ${who}`;";

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

const greet = () => fs.readFileSync(path.join(workspace.dir, "src", "greet.mjs"), "utf8");
const run = (model: string, flags: string[], env: Record<string, string>) =>
  tackle(
    [
      "run",
      "--model",
      model,
      "--base-url",
      `${server!.url}/v1`,
      "--cwd",
      workspace.dir,
      ...flags,
      "Fix greet",
    ],
    { env },
  );
type Item = Record<string, unknown>;
const calledTools = (stdout: string) => [...stdout.matchAll(/^→ (\w+)/gm)].map((match) => match[1]);
const inputItems = (body: { input?: Item[] }, type: string) =>
  (body.input ?? []).filter((item) => item.type === type);

describe("tackle run --model with the provider's native tools", () => {
  it("openai gpt-5.1: apply_patch and shell by default, answered in the Responses shapes; fixes the demo", async () => {
    const update = (callId: string, diff: string) => ({
      type: "apply_patch_call",
      id: `apc_${callId}`,
      call_id: callId,
      operation: { type: "update_file", path: "src/greet.mjs", diff },
    });
    server = await startProviderServer([
      openaiResponsesReply({ items: [update("call_stale", `@@\n-  ${WRONG_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({ items: [update("call_fix", `@@\n-  ${BUGGY_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({
        items: [
          { type: "shell_call", id: "sc_1", call_id: "call_shell", action: { commands: ["node test.mjs"] } },
        ],
      }),
      openaiResponsesReply({ text: "Fixed greet; the test passes." }),
    ]);
    const result = await run("openai:gpt-5.1", [], { OPENAI_API_KEY: "sk-test" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(greet()).toContain(FIXED_LINE);
    expect(calledTools(result.stdout)).toEqual(["apply_patch", "apply_patch", "shell"]);

    const bodies = server.requests.map((request) => request.body);
    const declared = bodies[0].tools as Item[];
    expect(declared.slice(0, 2)).toEqual([{ type: "apply_patch" }, { type: "shell" }]);
    // Tackle's read, write, edit and bash give way to the set; grep, find and ls stay.
    expect(declared.slice(2).map((tool) => tool.name)).toEqual(["grep", "find", "ls"]);
    // The system prompt lists the set, with its guideline.
    const system = bodies[0].instructions ?? JSON.stringify(bodies[0].input);
    expect(system).toContain("- apply_patch: ");
    expect(system).toContain("copy its kept and removed lines exactly");
    expect(inputItems(bodies[1], "apply_patch_call_output")).toEqual([
      expect.objectContaining({ call_id: "call_stale", status: "failed" }),
    ]);
    expect(inputItems(bodies[2], "apply_patch_call_output").at(-1)).toMatchObject({
      call_id: "call_fix",
      status: "completed",
    });
    const [shell] = inputItems(bodies[3], "shell_call_output");
    expect((shell?.output as Item[] | undefined)?.[0]).toMatchObject({
      outcome: { type: "exit", exit_code: 0 },
    });
  });

  it("anthropic claude-sonnet-4-5: the text editor and bash by default; fixes the demo", async () => {
    const editor = "str_replace_based_edit_tool";
    server = await startProviderServer([
      anthropicReply({
        calls: [{ id: "toolu_1", name: editor, args: { command: "view", path: "src/greet.mjs" } }],
      }),
      anthropicReply({
        calls: [
          {
            id: "toolu_2",
            name: editor,
            args: { command: "str_replace", path: "src/greet.mjs", old_str: BUGGY_LINE, new_str: FIXED_LINE },
          },
        ],
      }),
      anthropicReply({ calls: [{ id: "toolu_3", name: "bash", args: { command: "node test.mjs" } }] }),
      anthropicReply({ text: "Fixed." }),
    ]);
    const result = await run("anthropic:claude-sonnet-4-5", [], { ANTHROPIC_API_KEY: "sk-ant-test" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(greet()).toContain(FIXED_LINE);
    expect(calledTools(result.stdout)).toEqual([editor, editor, "bash"]);
    const declared = server.requests[0]?.body.tools as Item[];
    expect(declared.slice(0, 2)).toEqual([
      { type: "text_editor_20250728", name: editor },
      { type: "bash_20250124", name: "bash" },
    ]);
    expect(declared.slice(2).map((tool) => tool.name)).toEqual(["grep", "find", "ls"]);
  });

  it("--tool-format tackle, and models not trained on the set, get Tackle's tools", async () => {
    server = await startProviderServer([
      openaiResponsesReply({ text: "ok" }),
      openaiResponsesReply({ text: "ok" }),
    ]);
    const tackleFormat = await run("openai:gpt-5.1", ["--tool-format", "tackle"], {
      OPENAI_API_KEY: "sk-test",
    });
    expect(tackleFormat.code).toBe(EXIT.ok);
    const older = await run("openai:gpt-4.1", [], { OPENAI_API_KEY: "sk-test" });
    expect(older.code).toBe(EXIT.ok);
    for (const request of server.requests) {
      const names = (request.body.tools as Item[]).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["read", "write", "edit", "bash", "grep"]));
      expect(names).not.toContain("apply_patch");
    }
  });

  it("--tool-format native where it cannot apply, or a bad value, is a usage error", async () => {
    server = await startProviderServer([openaiReply({ text: "never" })]);
    const compatible = await run("openai-compatible:qwen3", ["--tool-format", "native"], {});
    expectUsageError(compatible);
    expect(compatible.stderr).toContain("openai-compatible defines no tool set of its own");
    const readOnly = await run("openai:gpt-5.1", ["--tool-format", "native", "--read-only"], {
      OPENAI_API_KEY: "k",
    });
    expectUsageError(readOnly);
    expect(readOnly.stderr).toContain("cannot go with --read-only");
    const bad = await run("openai:gpt-5.1", ["--tool-format", "codex"], { OPENAI_API_KEY: "k" });
    expectUsageError(bad);
    expect(bad.stderr).toContain('--tool-format takes auto, native, tackle; got "codex"');
    const script = await tackle(["run", "--script", "s.json", "--tool-format", "native"]);
    expectUsageError(script);
    expect(script.stderr).toContain("--tool-format goes with --model");
    expect(server.requests).toEqual([]);
  });
});

describe("chooseNativeSet", () => {
  const choose = (provider: string, modelId: string, extra: Partial<ToolFormatRequest> = {}) =>
    chooseNativeSet({ format: "auto", provider, modelId, toolsListed: false, readOnly: false, ...extra });

  it("auto: the set for models trained on it, unless --tools or --read-only chose the tools", () => {
    expect(["gpt-5.1", "gpt-5.1-codex", "gpt-5.2", "gpt-6"].map((id) => choose("openai", id))).toEqual([
      "openai",
      "openai",
      "openai",
      "openai",
    ]);
    expect(["gpt-5", "gpt-4.1", "o3", "gpt-4o-mini"].map((id) => choose("openai", id))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"].map((id) => choose("anthropic", id)),
    ).toEqual(["anthropic", "anthropic", "anthropic"]);
    expect(choose("anthropic", "claude-3-7-sonnet-latest")).toBeUndefined();
    expect(choose("google", "gemini-2.5-pro")).toBeUndefined();
    expect(choose("openai", "gpt-5.1", { toolsListed: true })).toBeUndefined();
    expect(choose("anthropic", "claude-sonnet-4-5", { readOnly: true })).toBeUndefined();
  });

  it("native: the set whatever the model id and --tools; tackle: never", () => {
    expect(choose("openai", "gpt-4.1", { format: "native", toolsListed: true })).toBe("openai");
    expect(choose("openai", "gpt-5.1", { format: "tackle" })).toBeUndefined();
  });
});
