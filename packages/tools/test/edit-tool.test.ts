import { chmod, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import type { ToolSession } from "@tackle/extensions";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition, type EditDetails } from "../src/tools/edit.js";
import { createReadToolDefinition } from "../src/tools/read.js";

let dir: string;
let ctx: ToolSession;
let edit: AnyAgentTool;
let read: AnyAgentTool;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-edit-"));
  ctx = createLocalToolContext({ cwd: dir });
  edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
  read = wrapToolDefinition(createReadToolDefinition(), () => ctx);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
const details = (outcome: ToolOutcome) => outcome.details as EditDetails;
const file = (name: string) => join(dir, name);

async function put(name: string, content: string | Uint8Array) {
  await writeFile(file(name), content);
}

describe("edit tool on real files", () => {
  it("replaces a unique exact match, names the matcher and carries a unified diff", async () => {
    await put("a.ts", "const a = 1;\nconst b = 2;\n");
    const outcome = await invokeTool(edit, {
      path: "a.ts",
      edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    });
    expect(outcome.isError).toBe(false);
    expect(await readFile(file("a.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    expect(text(outcome)).toContain("edits[0]: exact, line 2");
    expect(details(outcome).diff).toContain("-const b = 2;\n+const b = 3;");
    expect(details(outcome).diff).toContain("--- a/a.ts");
  });

  it("applies a fuzzy match, rewriting only the changed text and naming the kinds", async () => {
    await put("q.ts", "say(\u201Chello\u201D);\nkeep(\u201Cthis\u201D);\n");
    const outcome = await invokeTool(edit, {
      path: "q.ts",
      edits: [{ oldText: 'say("hello");', newText: 'say("bye");' }],
    });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toContain("fuzzy:quotes");
    // The file's curly quotes stay curly: the fuzzy pass found the place, it changes no spelling.
    expect(await readFile(file("q.ts"), "utf8")).toBe("say(\u201Cbye\u201D);\nkeep(\u201Cthis\u201D);\n");
  });

  it("accepts oldText copied from read output with its line numbers", async () => {
    await put("n.py", "def f():\n    return 1\n\nprint(f())\n");
    const shown = text(await invokeTool(read, { path: "n.py" }))
      .split("\n")
      .filter((line) => /^\s*\d+\t/.test(line));
    const oldText = shown.slice(0, 3).join("\n");
    const outcome = await invokeTool(edit, {
      path: "n.py",
      edits: [{ oldText, newText: "def f():\n    return 2\n" }],
    });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toContain("fuzzy:line-numbers");
    expect(await readFile(file("n.py"), "utf8")).toBe("def f():\n    return 2\n\nprint(f())\n");
  });

  it("reports an ambiguous match with its count and writes nothing", async () => {
    await put("d.txt", "x = 1\nx = 1\n");
    const outcome = await invokeTool(edit, {
      path: "d.txt",
      edits: [{ oldText: "x = 1", newText: "x = 2" }],
    });
    expect(outcome).toMatchObject({ isError: true, errorCode: "ambiguous_match" });
    expect(text(outcome)).toContain("matches 2 places");
    expect(await readFile(file("d.txt"), "utf8")).toBe("x = 1\nx = 1\n");
  });

  it("replaces all occurrences with replaceAll", async () => {
    await put("d.txt", "x = 1\nx = 1\n");
    const outcome = await invokeTool(edit, {
      path: "d.txt",
      edits: [{ oldText: "x = 1", newText: "x = 2", replaceAll: true }],
    });
    expect(outcome.isError).toBe(false);
    expect(await readFile(file("d.txt"), "utf8")).toBe("x = 2\nx = 2\n");
  });

  it("is all or nothing across edits and rejects overlaps", async () => {
    await put("m.txt", "alpha beta gamma\n");
    const missing = await invokeTool(edit, {
      path: "m.txt",
      edits: [
        { oldText: "alpha", newText: "A" },
        { oldText: "delta", newText: "D" },
      ],
    });
    expect(missing).toMatchObject({ isError: true, errorCode: "no_match" });
    const overlap = await invokeTool(edit, {
      path: "m.txt",
      edits: [
        { oldText: "alpha beta", newText: "1" },
        { oldText: "beta gamma", newText: "2" },
      ],
    });
    expect(overlap).toMatchObject({ isError: true, errorCode: "overlapping_edits" });
    expect(await readFile(file("m.txt"), "utf8")).toBe("alpha beta gamma\n");
  });

  it("keeps CRLF line endings and a UTF-8 BOM", async () => {
    await put("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    const outcome = await invokeTool(edit, {
      path: "w.txt",
      edits: [{ oldText: "two\nthree", newText: "2\n2.5\n3" }],
    });
    expect(outcome.isError).toBe(false);
    expect(await readFile(file("w.txt"), "utf8")).toBe("\uFEFFone\r\n2\r\n2.5\r\n3\r\n");
  });

  it("keeps mixed line endings line by line", async () => {
    await put("mixed.txt", "a\r\nb\nc\r\n");
    await invokeTool(edit, { path: "mixed.txt", edits: [{ oldText: "b", newText: "B" }] });
    expect(await readFile(file("mixed.txt"), "utf8")).toBe("a\r\nB\nc\r\n");
  });

  it("keeps UTF-16 LE encoding", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello w\u00F6rld\n", "utf16le")]);
    await put("u16.txt", bytes);
    const outcome = await invokeTool(edit, {
      path: "u16.txt",
      edits: [{ oldText: "w\u00F6rld", newText: "there" }],
    });
    expect(outcome.isError).toBe(false);
    const after = await readFile(file("u16.txt"));
    expect([...after.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(after.subarray(2).toString("utf16le")).toBe("hello there\n");
  });

  it("refuses a file that would not round-trip its encoding instead of mangling it", async () => {
    const bytes = Buffer.concat([Buffer.from("name = caf"), Buffer.from([0xe9]), Buffer.from("\nx = 1\n")]);
    await put("latin1.txt", bytes);
    const outcome = await invokeTool(edit, {
      path: "latin1.txt",
      edits: [{ oldText: "x = 1", newText: "x = 2" }],
    });
    expect(outcome).toMatchObject({ isError: true, errorCode: "encoding" });
    expect(text(outcome)).toContain("Nothing was written");
    expect(Buffer.compare(await readFile(file("latin1.txt")), bytes)).toBe(0);
  });

  it("refuses newText that UTF-8 cannot store (a lone surrogate)", async () => {
    await put("s.txt", "a\n");
    const outcome = await invokeTool(edit, { path: "s.txt", edits: [{ oldText: "a", newText: "\uD800" }] });
    expect(outcome).toMatchObject({ isError: true, errorCode: "encoding" });
    expect(await readFile(file("s.txt"), "utf8")).toBe("a\n");
  });

  it("says a re-sent edit is already applied, because this session applied it", async () => {
    await put("v.txt", "version = 1\n");
    const args = { path: "v.txt", edits: [{ oldText: "version = 1", newText: "version = 2" }] };
    expect((await invokeTool(edit, args)).isError).toBe(false);
    const again = await invokeTool(edit, args);
    expect(again.isError).toBe(false);
    expect(text(again)).toContain("already applied: an earlier edit call of this session made this change");
    expect(details(again).changed).toBe(false);
    expect(details(again).edits[0]).toMatchObject({ status: "already_applied", evidence: "this-session" });
  });

  it("does not claim a change it did not make: no_match, naming where newText is", async () => {
    await put("w.ts", "bar(1);\nfoo(2);\n");
    const outcome = await invokeTool(edit, {
      path: "w.ts",
      edits: [{ oldText: "foo(1)", newText: "bar(1)" }],
    });
    expect(outcome).toMatchObject({ isError: true, errorCode: "no_match" });
    expect(text(outcome)).toContain("newText already occurs at line 1");
    // Another session (another ledger) did not make the change either.
    await put("v.txt", "version = 1\n");
    const args = { path: "v.txt", edits: [{ oldText: "version = 1", newText: "version = 2" }] };
    expect((await invokeTool(edit, args)).isError).toBe(false);
    const other = createLocalToolContext({ cwd: dir });
    const otherEdit = wrapToolDefinition(createEditToolDefinition(), () => other);
    expect(await invokeTool(otherEdit, args)).toMatchObject({ isError: true, errorCode: "no_match" });
  });

  it("shows the closest region and first differing line when oldText is not found", async () => {
    await put("c.ts", "function f() {\n  const total = 1;\n  return total;\n}\n");
    const outcome = await invokeTool(edit, {
      path: "c.ts",
      edits: [{ oldText: "function f() {\n  const totl = 1;\n  return total;", newText: "x" }],
    });
    expect(outcome).toMatchObject({ isError: true, errorCode: "no_match" });
    expect(text(outcome)).toContain("Closest region, lines 1-3");
    expect(text(outcome)).toContain("First difference at line 2");
  });

  it("shows the diff on dryRun and writes nothing", async () => {
    await put("dry.txt", "keep\nold\n");
    const outcome = await invokeTool(edit, {
      path: "dry.txt",
      dryRun: true,
      edits: [{ oldText: "old", newText: "new" }],
    });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toContain("Dry run");
    expect(text(outcome)).toContain("+new");
    expect(await readFile(file("dry.txt"), "utf8")).toBe("keep\nold\n");
  });

  it("keeps the file mode", async () => {
    await put("run.sh", "#!/bin/sh\necho hi\n");
    await chmod(file("run.sh"), 0o754);
    await invokeTool(edit, { path: "run.sh", edits: [{ oldText: "echo hi", newText: "echo bye" }] });
    expect((await stat(file("run.sh"))).mode & 0o777).toBe(0o754);
  });

  it("refuses an edit of a file changed since it was read, and accepts a follow-up edit of its own write", async () => {
    await put("s.txt", "one\ntwo\n");
    expect((await invokeTool(read, { path: "s.txt" })).isError).toBe(false);
    const first = await invokeTool(edit, { path: "s.txt", edits: [{ oldText: "one", newText: "1" }] });
    expect(first.isError).toBe(false);
    const second = await invokeTool(edit, { path: "s.txt", edits: [{ oldText: "two", newText: "2" }] });
    expect(second.isError).toBe(false);
    await put("s.txt", "1\n2\nthree\n");
    const stale = await invokeTool(edit, { path: "s.txt", edits: [{ oldText: "three", newText: "3" }] });
    expect(stale).toMatchObject({ isError: true, errorCode: "stale_read" });
    expect(await readFile(file("s.txt"), "utf8")).toBe("1\n2\nthree\n");
    await invokeTool(read, { path: "s.txt" });
    expect(
      (await invokeTool(edit, { path: "s.txt", edits: [{ oldText: "three", newText: "3" }] })).isError,
    ).toBe(false);
  });

  it("edits the target of a symlink without replacing the link", async () => {
    await put("target.txt", "a\n");
    await symlink(file("target.txt"), file("link.txt"));
    await invokeTool(edit, { path: "link.txt", edits: [{ oldText: "a", newText: "b" }] });
    expect(await readFile(file("target.txt"), "utf8")).toBe("b\n");
    expect(await readlink(file("link.txt"))).toBe(file("target.txt"));
  });

  it("answers a missing file with not_found and points to write", async () => {
    const outcome = await invokeTool(edit, { path: "nope.txt", edits: [{ oldText: "a", newText: "b" }] });
    expect(outcome).toMatchObject({ isError: true, errorCode: "not_found" });
    expect(text(outcome)).toContain("use write");
  });

  it("refuses a path outside the workspace", async () => {
    const outcome = await invokeTool(edit, {
      path: "/etc/hostname",
      edits: [{ oldText: "a", newText: "b" }],
    });
    expect(outcome).toMatchObject({ isError: true, errorCode: "outside_workspace" });
  });

  it("serialises parallel edits of one file so all of them land", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    await put("p.txt", `${lines.join("\n")}\n`);
    const outcomes = await Promise.all(
      lines.map((line) =>
        invokeTool(edit, { path: "p.txt", edits: [{ oldText: `${line}\n`, newText: `${line} done\n` }] }),
      ),
    );
    expect(outcomes.every((outcome) => !outcome.isError)).toBe(true);
    expect(await readFile(file("p.txt"), "utf8")).toBe(`${lines.map((line) => `${line} done`).join("\n")}\n`);
  });
});
