/**
 * The provider-defined tools section of the tools conformance suite: calls in the providers' own
 * wire shapes (OpenAI `apply_patch_call` and `shell_call` items, Anthropic text editor and bash
 * `tool_use` blocks) answered through the handlers, on whatever `Operations` the env carries.
 */
import { describe, expect, it } from "vitest";
import {
  answerAnthropicToolUse,
  answerOpenAIResponsesItem,
  createNativeToolHandlers,
} from "../native/index.js";
import type { ToolsConformanceEnv } from "./env.js";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Registers the native tools conformance tests. */
export function defineNativeToolsConformance(getEnv: () => ToolsConformanceEnv): void {
  async function setup(files: Record<string, string>) {
    const env = getEnv();
    const abs = await env.freshDir("native");
    await env.fixture(abs, files);
    const sep = env.ctx.operations.platform === "win32" ? "\\" : "/";
    const dir = abs
      .slice(env.root.length + 1)
      .split(sep)
      .join("/");
    const content = async (name: string) => {
      try {
        return decoder.decode(await env.ctx.operations.readFile(env.path(dir, name)));
      } catch {
        return null;
      }
    };
    return { env, dir, content, native: createNativeToolHandlers({ context: env.ctx }) };
  }

  const editorCall = (id: string, input: Record<string, unknown>) =>
    ({ type: "tool_use", id, name: "str_replace_based_edit_tool", input }) as const;

  describe("OpenAI apply_patch (apply_patch_call -> apply_patch_call_output)", () => {
    it("creates, updates with @@ anchors, and deletes files", async () => {
      const { dir, content, native } = await setup({
        "app.py": "def a():\n    return 1\n\n\ndef b():\n    return 1\n",
        "old.txt": "x\n",
      });
      const created = await answerOpenAIResponsesItem(native, {
        type: "apply_patch_call",
        call_id: "call_1",
        status: "completed",
        operation: { type: "create_file", path: `${dir}/lib/new.py`, diff: "+print('new')\n+\n" },
      });
      expect(created).toMatchObject({
        type: "apply_patch_call_output",
        call_id: "call_1",
        status: "completed",
      });
      expect(await content("lib/new.py")).toBe("print('new')\n\n");
      const updated = await answerOpenAIResponsesItem(native, {
        type: "apply_patch_call",
        call_id: "call_2",
        operation: {
          type: "update_file",
          path: `${dir}/app.py`,
          diff: "@@ def b():\n-    return 1\n+    return 2\n",
        },
      });
      expect(updated).toMatchObject({
        status: "completed",
        output: expect.stringContaining(`M ${dir}/app.py`),
      });
      expect(await content("app.py")).toBe("def a():\n    return 1\n\n\ndef b():\n    return 2\n");
      const deleted = await answerOpenAIResponsesItem(native, {
        type: "apply_patch_call",
        call_id: "call_3",
        operation: { type: "delete_file", path: `${dir}/old.txt` },
      });
      expect(deleted).toMatchObject({ status: "completed" });
      expect(await content("old.txt")).toBeNull();
    });

    it("answers failed, naming the hunk and first differing line, for a stale hunk, and changes nothing", async () => {
      const { dir, content, native } = await setup({ "a.js": "const x = 1;\nconst y = 2;\n" });
      const answer = await native.openai.applyPatch({
        callId: "c",
        operation: {
          type: "update_file",
          path: `${dir}/a.js`,
          diff: "@@\n const x = 1;\n-const y = 3;\n+const y = 4;\n",
        },
      });
      expect(answer.status).toBe("failed");
      // Line numbers count the diff's own lines: its '@@' is line 1.
      expect(answer.output).toContain(`hunk 1 (patch line 1) of ${dir}/a.js`);
      expect(answer.output).toContain("First difference at line 2");
      expect(await content("a.js")).toBe("const x = 1;\nconst y = 2;\n");
    });

    it("numbers the lines of the diff as the model sent it, and names no line for the path", async () => {
      const { dir, content, native } = await setup({ "a.js": "const x = 1;\nconst y = 2;\n" });
      const badLine = await native.openai.applyPatch({
        callId: "c",
        operation: { type: "update_file", path: `${dir}/a.js`, diff: "@@\n const x = 1;\nconst y = 2;\n" },
      });
      expect(badLine.status).toBe("failed");
      expect(badLine.output).toContain('Patch line 3 ("const y = 2;")');
      const secondHunk = await native.openai.applyPatch({
        callId: "c",
        operation: {
          type: "update_file",
          path: `${dir}/a.js`,
          diff: "@@\n-const x = 1;\n+const x = 5;\n@@\n-const z = 2;\n+const z = 3;\n",
        },
      });
      expect(secondHunk.output).toContain(`hunk 2 (patch line 4) of ${dir}/a.js`);
      const missing = await native.openai.applyPatch({
        callId: "c",
        operation: { type: "update_file", path: `${dir}/none.js`, diff: "@@\n-a\n+b\n" },
      });
      expect(missing.output).toContain(`'*** Update File: ${dir}/none.js': no such file.`);
      expect(await content("a.js")).toBe("const x = 1;\nconst y = 2;\n");
    });

    it("answers failed for context that appears twice and for a path outside the workspace", async () => {
      const { dir, content, native } = await setup({ "d.txt": "same\nsame\n" });
      const twice = await native.openai.applyPatch({
        callId: "c",
        operation: { type: "update_file", path: `${dir}/d.txt`, diff: "-same\n+other\n" },
      });
      expect(twice).toMatchObject({
        status: "failed",
        output: expect.stringContaining("2 places (lines 1, 2)"),
      });
      expect(await content("d.txt")).toBe("same\nsame\n");
      const outside = await native.openai.applyPatch({
        callId: "c",
        operation: { type: "create_file", path: "../../tackle-native-outside.txt", diff: "+x\n" },
      });
      expect(outside).toMatchObject({ status: "failed", output: expect.stringContaining("outside") });
    });
  });

  describe("OpenAI shell (shell_call -> shell_call_output)", () => {
    it("runs each command in order and answers its output and exit code", async () => {
      const { native } = await setup({});
      const answer = await answerOpenAIResponsesItem(native, {
        type: "shell_call",
        call_id: "sh_1",
        action: { commands: ["echo native-hello", "exit 3"], timeout_ms: 20_000, max_output_length: null },
      });
      expect(answer).toMatchObject({ type: "shell_call_output", call_id: "sh_1" });
      const output = (answer as { output: { stdout: string; outcome: unknown }[] }).output;
      expect(output).toHaveLength(2);
      expect(output[0]?.stdout).toContain("native-hello");
      expect(output[0]?.outcome).toEqual({ type: "exit", exit_code: 0 });
      expect(output[1]?.outcome).toEqual({ type: "exit", exit_code: 3 });
    });

    it("answers timeout (not an exit code) for a command stopped at timeoutMs", async () => {
      const { native } = await setup({});
      const answer = await native.openai.shell({ action: { commands: ["sleep 30"], timeoutMs: 1000 } });
      expect(answer.output[0]?.outcome).toEqual({ type: "timeout" });
    });

    it("refuses a command the policy denies, with the reason in stderr and nothing run", async () => {
      const { native } = await setup({});
      const answer = await native.openai.shell({ action: { commands: ["sudo touch /tackle-never"] } });
      expect(answer.output[0]?.outcome).toEqual({ type: "exit", exitCode: 126 });
      expect(answer.output[0]?.stderr).not.toBe("");
    });

    it("applies apply_patch <<'EOF' sent through the shell", async () => {
      const { dir, content, native } = await setup({ "s.txt": "one\n" });
      const answer = await native.openai.shell({
        action: {
          commands: [
            `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: ${dir}/s.txt\n-one\n+two\n*** End Patch\nEOF`,
          ],
        },
      });
      expect(answer.output[0]?.outcome).toEqual({ type: "exit", exitCode: 0 });
      expect(await content("s.txt")).toBe("two\n");
    });
  });

  describe("Anthropic text_editor_20250728 (str_replace_based_edit_tool)", () => {
    it("views a file with line numbers, a range of it, and a directory two levels deep", async () => {
      const { dir, native } = await setup({
        "v.txt": "alpha\nbeta\ngamma\ndelta\n",
        "tree/a/b/c.txt": "deep",
        "tree/top.txt": "t",
        "tree/.hidden": "h",
      });
      const whole = await native.anthropic.textEditor({ command: "view", path: `${dir}/v.txt` });
      expect(whole).toMatch(/1\talpha\n2\tbeta\n3\tgamma\n4\tdelta/);
      const range = await native.anthropic.textEditor({
        command: "view",
        path: `${dir}/v.txt`,
        view_range: [2, 3],
      });
      expect(range).toMatch(/2\tbeta\n3\tgamma/);
      expect(range).not.toContain("alpha");
      const rest = await native.anthropic.textEditor({
        command: "view",
        path: `${dir}/v.txt`,
        view_range: [3, -1],
      });
      expect(rest).toMatch(/3\tgamma\n4\tdelta/);
      const tree = await native.anthropic.textEditor({ command: "view", path: `${dir}/tree` });
      expect(tree).toContain("a/\na/b/\ntop.txt");
      expect(tree).not.toContain("c.txt");
      expect(tree).not.toContain(".hidden");
    });

    it("creates a file, and str_replace changes exactly one match", async () => {
      const { dir, content, native } = await setup({});
      await native.anthropic.textEditor({
        command: "create",
        path: `${dir}/n.py`,
        file_text: "x = 1\ny = 2\n",
      });
      expect(await content("n.py")).toBe("x = 1\ny = 2\n");
      await native.anthropic.textEditor({
        command: "str_replace",
        path: `${dir}/n.py`,
        old_str: "y = 2",
        new_str: "y = 3",
      });
      expect(await content("n.py")).toBe("x = 1\ny = 3\n");
    });

    it("refuses str_replace with no match and with several, naming the lines, as is_error tool results", async () => {
      const { dir, content, native } = await setup({ "m.txt": "item\nother\nitem\n" });
      const several = await answerAnthropicToolUse(
        native,
        editorCall("tu_1", { command: "str_replace", path: `${dir}/m.txt`, old_str: "item", new_str: "x" }),
      );
      expect(several).toMatchObject({ type: "tool_result", tool_use_id: "tu_1", is_error: true });
      expect(several?.content).toContain("2 places");
      expect(several?.content).toMatch(/1:1, 3:1/);
      const none = await answerAnthropicToolUse(
        native,
        editorCall("tu_2", { command: "str_replace", path: `${dir}/m.txt`, old_str: "othre", new_str: "x" }),
      );
      expect(none).toMatchObject({ is_error: true });
      expect(none?.content).toContain("not found");
      expect(await content("m.txt")).toBe("item\nother\nitem\n");
    });

    it("inserts at the top, after any line, at the end of a file without a final newline, and refuses past the end", async () => {
      const { dir, content, native } = await setup({ "i.txt": "a\nb" });
      const path = `${dir}/i.txt`;
      await native.anthropic.textEditor({ command: "insert", path, insert_line: 0, insert_text: "top" });
      await native.anthropic.textEditor({
        command: "insert",
        path,
        insert_line: 2,
        insert_text: "mid1\nmid2",
      });
      await native.anthropic.textEditor({ command: "insert", path, insert_line: 5, insert_text: "end" });
      expect(await content("i.txt")).toBe("top\na\nmid1\nmid2\nb\nend");
      await expect(
        native.anthropic.textEditor({ command: "insert", path, insert_line: 9, insert_text: "x" }),
      ).rejects.toThrow(/insert_line 9 is not a line of .* which has 6 lines/);
    });

    it("refuses str_replace on a file changed since it was viewed", async () => {
      const { env, dir, native } = await setup({ "s.txt": "v1\n" });
      await native.anthropic.textEditor({ command: "view", path: `${dir}/s.txt` });
      await env.ctx.operations.writeFile(env.path(dir, "s.txt"), new TextEncoder().encode("v1\nchanged\n"));
      const answer = await answerAnthropicToolUse(
        native,
        editorCall("tu_3", { command: "str_replace", path: `${dir}/s.txt`, old_str: "v1", new_str: "v2" }),
      );
      expect(answer).toMatchObject({
        is_error: true,
        content: expect.stringContaining("changed since you read it"),
      });
    });
  });

  describe("Anthropic bash_20250124", () => {
    it("runs commands, keeps a cd for the session, and restart puts the session back", async () => {
      const { env, dir, native } = await setup({ "sub/marker.txt": "m" });
      expect(await native.anthropic.bash({ command: "echo from-bash" })).toContain("from-bash");
      await native.anthropic.bash({ command: `cd ${dir}/sub` });
      expect(await native.anthropic.bash({ command: "ls" })).toContain("marker.txt");
      expect(await native.anthropic.bash({ restart: true })).toContain("restarted");
      expect(await native.anthropic.bash({ command: "pwd" })).toContain(env.root);
      expect(await native.anthropic.bash({ command: "pwd" })).not.toContain("/sub");
      await expect(native.anthropic.bash({ command: "exit 4" })).rejects.toThrow(/exit code 4/);
    });
  });
}
