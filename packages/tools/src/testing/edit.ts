/**
 * The edit section of the tools conformance suite: runs the edit tool against whatever
 * `Operations` the env's context carries (local, SSH, Docker) and checks what must hold
 * everywhere: matching, all-or-nothing, line endings, BOM, encoding refusal, mode, links,
 * staleness and the mutation queue.
 */
import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../tools/edit.js";
import { createReadToolDefinition } from "../tools/read.js";
import { callWithDirectorySwapped, type ToolsConformanceEnv, textOf } from "./env.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Registers the edit conformance tests. `getEnv` is called inside each test (the env is built
 * in the suite's `beforeAll`).
 */
export function defineEditConformance(getEnv: () => ToolsConformanceEnv): void {
  const edit = createEditToolDefinition();
  const read = createReadToolDefinition();

  async function setup(name: string, content: string | Uint8Array) {
    const env = getEnv();
    const dir = await env.freshDir("edit");
    await env.fixture(dir, { [name]: content });
    const path = `${dir}${env.ctx.operations.platform === "win32" ? "\\" : "/"}${name}`;
    const bytes = async () => env.ctx.operations.readFile(path);
    const text = async () => decoder.decode(await bytes());
    const run = (args: Record<string, unknown>) => env.run(edit, { path, ...args });
    return { env, path, bytes, text, run };
  }

  const codeOf = (outcome: ToolOutcome) => outcome.errorCode;

  describe("edit", () => {
    it("replaces a unique exact match and reports the matcher and a diff", async () => {
      const file = await setup("a.ts", "const a = 1;\nconst b = 2;\n");
      const outcome = await file.run({ edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }] });
      expect(outcome.isError).toBe(false);
      expect(textOf(outcome)).toContain("exact");
      expect((outcome.details as { diff: string }).diff).toContain("+const b = 3;");
      expect(await file.text()).toBe("const a = 1;\nconst b = 3;\n");
    });

    it("matches fuzzily and leaves untouched text byte-identical", async () => {
      const file = await setup("q.txt", "say(\u201Chi\u201D)  \nkeep(\u201Cme\u201D)\n");
      const outcome = await file.run({ edits: [{ oldText: 'say("hi")', newText: 'say("bye")' }] });
      expect(outcome.isError).toBe(false);
      expect(textOf(outcome)).toContain("fuzzy:quotes");
      expect(await file.text()).toBe("say(\u201Cbye\u201D)  \nkeep(\u201Cme\u201D)\n");
    });

    it("fails an ambiguous match with its count and writes nothing", async () => {
      const file = await setup("d.txt", "x\nx\n");
      const outcome = await file.run({ edits: [{ oldText: "x", newText: "y" }] });
      expect(codeOf(outcome)).toBe("ambiguous_match");
      expect(textOf(outcome)).toContain("2 places");
      expect(await file.text()).toBe("x\nx\n");
    });

    it("applies all edits or none", async () => {
      const file = await setup("m.txt", "one two\n");
      const outcome = await file.run({
        edits: [
          { oldText: "one", newText: "1" },
          { oldText: "three", newText: "3" },
        ],
      });
      expect(codeOf(outcome)).toBe("no_match");
      expect(await file.text()).toBe("one two\n");
    });

    it("keeps CRLF, mixed line endings and the BOM", async () => {
      const file = await setup("w.txt", "\uFEFFa\r\nb\nc\r\n");
      const outcome = await file.run({
        edits: [
          { oldText: "a", newText: "A" },
          { oldText: "c", newText: "C\nD" },
        ],
      });
      expect(outcome.isError).toBe(false);
      expect(await file.text()).toBe("\uFEFFA\r\nb\nC\r\nD\r\n");
    });

    it("refuses a file that would not round-trip its encoding", async () => {
      const bytes = new Uint8Array([...encoder.encode("caf"), 0xe9, ...encoder.encode("\nx\n")]);
      const file = await setup("l1.txt", bytes);
      const outcome = await file.run({ edits: [{ oldText: "x", newText: "y" }] });
      expect(codeOf(outcome)).toBe("encoding");
      expect([...(await file.bytes())]).toEqual([...bytes]);
    });

    it("recognises an edit it already applied, and claims nothing it did not apply", async () => {
      const file = await setup("v.txt", "v = 1\n");
      const edits = [{ oldText: "v = 1", newText: "v = 2" }];
      expect((await file.run({ edits })).isError).toBe(false);
      const again = await file.run({ edits });
      expect(again.isError).toBe(false);
      expect(textOf(again)).toContain("already applied");
      const other = await setup("w.txt", "bar(1)\nfoo(2)\n");
      const outcome = await other.run({ edits: [{ oldText: "foo(1)", newText: "bar(1)" }] });
      expect(codeOf(outcome)).toBe("no_match");
      expect(await other.text()).toBe("bar(1)\nfoo(2)\n");
    });

    it("shows the diff on dryRun without writing", async () => {
      const file = await setup("dry.txt", "old\n");
      const outcome = await file.run({ dryRun: true, edits: [{ oldText: "old", newText: "new" }] });
      expect(textOf(outcome)).toContain("+new");
      expect(await file.text()).toBe("old\n");
    });

    it("keeps the file mode", async () => {
      const file = await setup("x.sh", "echo a\n");
      const ops = file.env.ctx.operations;
      if (ops.platform === "win32") return;
      await ops.chmod(file.path, 0o750);
      await file.run({ edits: [{ oldText: "echo a", newText: "echo b" }] });
      expect((await ops.stat(file.path)).mode & 0o777).toBe(0o750);
    });

    it("refuses an edit after an outside change until the file is read again", async () => {
      const file = await setup("s.txt", "one\n");
      await file.env.run(read, { path: file.path });
      await file.env.ctx.operations.writeFile(file.path, encoder.encode("one\ntwo\n"));
      const stale = await file.run({ edits: [{ oldText: "two", newText: "2" }] });
      expect(codeOf(stale)).toBe("stale_read");
      await file.env.run(read, { path: file.path });
      const fresh = await file.run({ edits: [{ oldText: "two", newText: "2" }] });
      expect(fresh.isError).toBe(false);
      const again = await file.run({ edits: [{ oldText: "one", newText: "1" }] });
      expect(again.isError).toBe(false);
      expect(await file.text()).toBe("1\n2\n");
    });

    it("checks the real path again right before writing: a directory swapped for a link to outside is refused", async () => {
      const env = getEnv();
      const ops = env.ctx.operations;
      const join = (...parts: string[]) => parts.join(ops.platform === "win32" ? "\\" : "/");
      const inner = await env.freshDir("edit-swap");
      const outside = await env.freshDir("edit-swap-outside");
      await env.fixture(inner, { "dir/f.txt": "secret = 1\n" });
      await env.fixture(outside, { "f.txt": "secret = 1\n" });
      const outcome = await callWithDirectorySwapped({
        ctx: await env.makeContext(inner),
        dir: join(inner, "dir"),
        linkTo: outside,
        file: join(inner, "dir", "f.txt"),
        call: (ctx) =>
          env.run(
            edit,
            { path: "dir/f.txt", edits: [{ oldText: "secret = 1", newText: "secret = 2" }] },
            { ctx },
          ),
      });
      expect(codeOf(outcome)).toBe("outside_workspace");
      expect(textOf(outcome)).toContain(outside);
      expect(decoder.decode(await ops.readFile(join(outside, "f.txt")))).toBe("secret = 1\n");
    });

    it("lands every one of many parallel edits to one file", async () => {
      const lines = Array.from({ length: 12 }, (_, i) => `item ${i}`);
      const file = await setup("p.txt", `${lines.join("\n")}\n`);
      const outcomes = await Promise.all(
        lines.map((line) => file.run({ edits: [{ oldText: `${line}\n`, newText: `${line} ok\n` }] })),
      );
      expect(outcomes.filter((outcome) => outcome.isError)).toEqual([]);
      expect(await file.text()).toBe(`${lines.map((line) => `${line} ok`).join("\n")}\n`);
    });

    it("answers a missing file with not_found, near-miss suggestions and write as the next step", async () => {
      const env = getEnv();
      const outcome = await env.run(edit, {
        path: env.path("missing.txt"),
        edits: [{ oldText: "a", newText: "b" }],
      });
      expect(codeOf(outcome)).toBe("not_found");
      expect(textOf(outcome)).toContain("use write to create a new one");
      const file = await setup("config.json", "{}\n");
      const near = await file.env.run(edit, {
        path: file.path.replace(/config\.json$/, "confg.json"),
        edits: [{ oldText: "{}", newText: "[]" }],
      });
      expect(codeOf(near)).toBe("not_found");
      expect(textOf(near)).toMatch(/Did you mean \S*config\.json\?/);
    });

    it("matches a redaction placeholder in oldText to the hidden value and writes it back from newText", async () => {
      const file = await setup(".env", "HOST=a\nAPI_KEY=hunter2-secret\n");
      await file.env.run(read, { path: file.path });
      const outcome = await file.run({
        edits: [
          {
            oldText: "HOST=a\nAPI_KEY=[REDACTED:assignment]",
            newText: "HOST=b\nAPI_KEY=[REDACTED:assignment]",
          },
        ],
      });
      expect(codeOf(outcome)).toBeUndefined();
      expect(textOf(outcome)).not.toContain("hunter2-secret");
      expect(await file.text()).toBe("HOST=b\nAPI_KEY=hunter2-secret\n");
    });

    it("refuses a placeholder in newText that stands for no hidden value in oldText, and writes nothing", async () => {
      const file = await setup(".env", "HOST=a\nAPI_KEY=hunter2-secret\n");
      await file.env.run(read, { path: file.path });
      const outcome = await file.run({
        edits: [{ oldText: "HOST=a", newText: "HOST=a\nOTHER_KEY=[REDACTED:assignment]" }],
      });
      expect(codeOf(outcome)).toBe("redacted_text");
      expect(await file.text()).toBe("HOST=a\nAPI_KEY=hunter2-secret\n");
    });
  });
}
