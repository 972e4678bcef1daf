import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyAgentTool, createMemoryAuditSink, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import type { DiagnosticsEvent, ToolSession } from "@tackle/extensions";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { checkSyntax } from "../src/syntax/check-syntax.js";
import { clearParseCache } from "../src/syntax/parse-cache.js";
import { createEditToolDefinition, type EditDetails } from "../src/tools/edit.js";
import { createWriteToolDefinition, type WriteDetails } from "../src/tools/write.js";
import { SYNTAX_CORPUS } from "./fixtures/syntax-corpus.js";

let dir: string;
let ctx: ToolSession;
let edit: AnyAgentTool;
let write: AnyAgentTool;
let events: DiagnosticsEvent[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-syntax-"));
  events = [];
  ctx = createLocalToolContext({ cwd: dir, diagnostics: { onEvent: (event) => events.push(event) } });
  edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
  write = wrapToolDefinition(createWriteToolDefinition(), () => ctx);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("syntax check after edit: the corpus", () => {
  for (const entry of SYNTAX_CORPUS) {
    it(`${entry.name}: ${entry.breaksAt === undefined ? "no warning" : `warns at line ${entry.breaksAt}`}`, async () => {
      await writeFile(join(dir, entry.file), entry.content);
      expect((await checkSyntax(entry.file, entry.content)).status).toBe("parses");
      const outcome = await invokeTool(edit, {
        path: entry.file,
        edits: [{ oldText: entry.oldText, newText: entry.newText }],
      });
      expect(outcome.isError).toBe(false);
      const feedback = (outcome.details as EditDetails).feedback;
      if (entry.breaksAt === undefined) {
        expect(feedback?.codes).toEqual([]);
        expect(feedback?.syntax.status).toBe("parses");
        expect(text(outcome)).not.toContain("Warning:");
        return;
      }
      expect(feedback?.codes).toEqual(["syntax_broken"]);
      expect(feedback?.syntax.status).toBe("broken");
      expect(feedback?.syntax.problems?.[0]?.line).toBe(entry.breaksAt);
      expect(text(outcome)).toContain(`no longer parses`);
      expect(text(outcome)).toContain(`line ${entry.breaksAt}, column`);
      expect(text(outcome)).toMatch(new RegExp(`^> +${entry.breaksAt} \\| `, "m"));
      // The change is kept: the model asked for it.
      expect(await readFile(join(dir, entry.file), "utf8")).toContain(entry.newText);
    });
  }
});

describe("syntax check after a change: files that did not parse before", () => {
  for (const entry of SYNTAX_CORPUS.filter((c) => c.breaksAt !== undefined)) {
    it(`${entry.name}: no warning when the file was already broken`, async () => {
      const broken = entry.content.replace(entry.oldText, entry.newText);
      await writeFile(join(dir, entry.file), broken);
      // A further change to a file that did not parse is not what broke it.
      const outcome = await invokeTool(write, { path: entry.file, content: `${broken}\n` });
      expect(text(outcome)).toContain("Overwrote");
      const feedback = (outcome.details as WriteDetails).feedback;
      expect(feedback?.codes).toEqual([]);
      expect(feedback?.syntax.status).toBe("still_broken");
      expect(text(outcome)).not.toContain("Warning:");
    });
  }
});

describe("syntax check: new files, events, audit, opting out", () => {
  it("warns when write creates a file that does not parse", async () => {
    const outcome = await invokeTool(write, { path: "new.py", content: "def f(:\n    pass\n" });
    const feedback = (outcome.details as WriteDetails).feedback;
    expect(feedback?.codes).toEqual(["syntax_broken"]);
    expect(feedback?.syntax.problems?.[0]?.line).toBe(1);
    expect(text(outcome)).toContain(
      "Warning: new.py does not parse as Python. The file was written as given.",
    );
  });

  it("sends one diagnostics event per checked change to the session's listener", async () => {
    await invokeTool(write, { path: "ok.json", content: '{"a": 1}\n' });
    await invokeTool(write, { path: "bad.json", content: '{"a": 1\n' });
    expect(events.map((e) => [e.type, e.toolName, e.path.endsWith(".json"), e.codes])).toEqual([
      ["diagnostics", "write", true, []],
      ["diagnostics", "write", true, ["syntax_broken"]],
    ]);
  });

  it("records the check with the call in the audit", async () => {
    const sink = createMemoryAuditSink();
    ctx = createLocalToolContext({ cwd: dir, audit: sink });
    await writeFile(join(dir, "a.go"), "package main\n");
    await invokeTool(
      edit,
      { path: "a.go", edits: [{ oldText: "package main", newText: "package main(" }] },
      {
        toolCallId: "call-1",
      },
    );
    const recorded = sink.events.filter((event) => event.kind === "diagnostics");
    expect(recorded).toEqual([
      expect.objectContaining({
        callId: "call-1",
        source: "diagnostics",
        codes: ["syntax_broken"],
        syntax: expect.objectContaining({ status: "broken", language: "go" }),
      }),
    ]);
  });

  it("checks nothing when the session turns the syntax check off", async () => {
    ctx = createLocalToolContext({ cwd: dir, diagnostics: { syntax: false } });
    const outcome = await invokeTool(write, { path: "bad.yaml", content: "a: [1\n" });
    expect((outcome.details as WriteDetails).feedback).toEqual({ codes: [], syntax: { status: "off" } });
    expect(text(outcome)).not.toContain("Warning:");
  });

  it("says nothing about a kind of file it has no parser for", async () => {
    const outcome = await invokeTool(write, { path: "notes.txt", content: "{ not [ balanced\n" });
    expect((outcome.details as WriteDetails).feedback?.syntax).toEqual({ status: "unsupported" });
    expect(events).toEqual([expect.objectContaining({ codes: [], syntax: { status: "unsupported" } })]);
  });
});

describe("syntax check: bounds", () => {
  it("does not parse a file past MAX_SYNTAX_CHECK_CHARS", async () => {
    const { MAX_SYNTAX_CHECK_CHARS } = await import("../src/diagnostics/syntax-feedback.js");
    const content = `[${"1,".repeat(MAX_SYNTAX_CHECK_CHARS / 2)}`;
    const outcome = await invokeTool(write, { path: "huge.json", content });
    expect((outcome.details as WriteDetails).feedback?.syntax).toEqual({
      status: "too_large",
      language: "json",
    });
    expect(text(outcome)).not.toContain("Warning:");
  });
});

describe("syntax check: incremental re-parsing", () => {
  it("gives the same verdict as a fresh parse for every change of the corpus", async () => {
    clearParseCache();
    for (const entry of SYNTAX_CORPUS) {
      const key = `test\0${entry.name}`;
      const after = entry.content.replace(entry.oldText, entry.newText);
      await checkSyntax(entry.file, entry.content, { cacheKey: key, remember: true });
      const incremental = await checkSyntax(entry.file, after, { cacheKey: key, remember: true });
      expect(incremental, entry.name).toEqual(await checkSyntax(entry.file, after));
      // The text before is now the file's previous text: answered from the cache, the same as a fresh parse.
      expect(await checkSyntax(entry.file, entry.content, { cacheKey: key })).toEqual(
        await checkSyntax(entry.file, entry.content),
      );
    }
  });

  it("follows a chain of 200 small changes, breaking and repairing, like a fresh parse each time", async () => {
    clearParseCache();
    const base = SYNTAX_CORPUS.find((c) => c.file === "user.ts")?.content ?? "";
    let text = base;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ["{", "}", "(", ")", '"', ";", "\n", "  ", "const x = 1;", "é", "😀"];
    for (let step = 0; step < 200; step++) {
      const at = random(text.length + 1);
      text =
        step % 10 === 9
          ? base
          : random(2) === 0
            ? text.slice(0, at) + (pieces[random(pieces.length)] ?? "") + text.slice(at)
            : text.slice(0, at) + text.slice(at + random(4));
      const incremental = await checkSyntax("chain.ts", text, { cacheKey: "test\0chain", remember: true });
      expect(incremental, `step ${step}`).toEqual(await checkSyntax("chain.ts", text));
    }
  });
});
