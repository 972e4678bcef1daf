import { isToolError } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { APPLY_PATCH_LARK_GRAMMAR, applyPatchResponsesTool } from "../src/patch/grammar.js";
import { recognizePatchCommand } from "../src/patch/heredoc.js";
import { newLinesOf, oldLinesOf, parsePatch } from "../src/patch/parse.js";

function parseError(text: string): { code: string; message: string } {
  try {
    parsePatch(text);
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("parsed");
}

describe("parsePatch", () => {
  it("reads add, delete, update with a move, anchors and End of File into sections", () => {
    const patch = parsePatch(
      [
        "*** Begin Patch",
        "*** Add File: a/new.py",
        "+print('hi')",
        "+",
        "*** Delete File: old.py",
        "*** Update File: src/x.py",
        "*** Move to: src/y.py",
        "@@ def f():",
        "-    pass",
        "+    return 1",
        "@@",
        " tail",
        "-end",
        "+END",
        "*** End of File",
        "*** End Patch",
      ].join("\n"),
    );
    expect(patch.sections.map((section) => section.kind)).toEqual(["add", "delete", "update"]);
    expect(patch.sections[0]).toMatchObject({ path: "a/new.py", lines: ["print('hi')", ""], patchLine: 2 });
    const update = patch.sections[2];
    if (update?.kind !== "update") throw new Error("not an update");
    expect(update.moveTo).toBe("src/y.py");
    expect(update.hunks).toHaveLength(2);
    expect(update.hunks[0]).toMatchObject({ anchors: ["def f():"], endOfFile: false, patchLine: 8 });
    expect(oldLinesOf(update.hunks[1] as never)).toEqual(["tail", "end"]);
    expect(newLinesOf(update.hunks[1] as never)).toEqual(["tail", "END"]);
    expect(update.hunks[1]?.endOfFile).toBe(true);
  });

  it("reads CRLF, padded markers and surrounding blank lines as Codex does", () => {
    const patch = parsePatch("\n\n  *** Begin Patch \r\n*** Add File: f.txt\r\n+x\r\n *** End Patch  \n\n");
    expect(patch.sections).toEqual([{ kind: "add", path: "f.txt", lines: ["x"], patchLine: 2 }]);
  });

  it("stacks consecutive @@ lines on one hunk and reads a unified-diff header as @@", () => {
    const patch = parsePatch(
      "*** Begin Patch\n*** Update File: f\n@@ class A\n@@   def b(self):\n-x\n+y\n@@ -10,4 +10,4 @@ def c\n-p\n+q\n*** End Patch",
    );
    const update = patch.sections[0];
    if (update?.kind !== "update") throw new Error("not an update");
    expect(update.hunks.map((hunk) => hunk.anchors)).toEqual([["class A", "def b(self):"], ["def c"]]);
  });

  it("allows a rename without hunks and an empty added file", () => {
    const patch = parsePatch(
      "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: empty\n*** End Patch",
    );
    expect(patch.sections).toMatchObject([
      { kind: "update", path: "a", moveTo: "b", hunks: [] },
      { kind: "add", path: "empty", lines: [] },
    ]);
  });

  it("refuses a missing Begin Patch, a missing End Patch, and an empty patch, each saying what to send", () => {
    expect(parseError("*** Update File: a\n-x\n+y\n*** End Patch")).toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("must start with the line '*** Begin Patch'"),
    });
    expect(parseError("*** Begin Patch\n*** Add File: a\n+x").message).toContain("cut off");
    expect(parseError("*** Begin Patch\n*** End Patch").message).toContain("holds no file sections");
  });

  it("names the patch line of a bad header, a bad add line, a bad hunk line and an empty hunk", () => {
    expect(parseError("*** Begin Patch\n*** Modify File: a\n*** End Patch").message).toContain(
      "Patch line 2",
    );
    expect(parseError("*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch").message).toContain(
      "Patch line 4 (\"y\") in '*** Add File: a' does not start with '+'",
    );
    expect(parseError("*** Begin Patch\n*** Update File: a\n@@\n x\n!y\n*** End Patch").message).toContain(
      "Patch line 5",
    );
    expect(parseError("*** Begin Patch\n*** Update File: a\n@@ f\n*** End Patch").message).toContain(
      "at patch line 3 of '*** Update File: a' has no lines",
    );
    expect(parseError("*** Begin Patch\n*** Update File: a\n*** End Patch").message).toContain(
      "has no hunks",
    );
  });

  it("reads a bare blank line inside an added file as an empty line when more '+' lines follow", () => {
    const patch = parsePatch("*** Begin Patch\n*** Add File: a\n+one\n\n+two\n\n*** End Patch");
    expect(patch.sections[0]).toMatchObject({ lines: ["one", "", "two"] });
  });

  it("unwraps a heredoc left on the input, and the whole apply_patch command", () => {
    const inner = "*** Begin Patch\n*** Delete File: a\n*** End Patch";
    for (const wrapped of [
      `<<'EOF'\n${inner}\nEOF`,
      `<<EOF\n${inner}\nEOF\n`,
      `apply_patch <<"EOF"\n${inner}\nEOF`,
    ]) {
      expect(parsePatch(wrapped).sections).toEqual([{ kind: "delete", path: "a", patchLine: 2 }]);
    }
  });
});

describe("recognizePatchCommand", () => {
  const body = "*** Begin Patch\n*** Delete File: a\n*** End Patch";

  it("recognises apply_patch and applypatch heredocs with any quoting, and a leading cd", () => {
    expect(recognizePatchCommand(`apply_patch <<'EOF'\n${body}\nEOF\n`)).toEqual({ patch: body });
    expect(recognizePatchCommand(`applypatch << PATCH\n${body}\nPATCH`)).toEqual({ patch: body });
    expect(recognizePatchCommand(`cd 'my dir' && apply_patch <<"EOF"\n${body}\nEOF`)).toEqual({
      patch: body,
      cd: "my dir",
    });
  });

  it("leaves anything else to the shell", () => {
    expect(recognizePatchCommand(`apply_patch <<'EOF'\n${body}\nEOF\necho more`)).toBeUndefined();
    expect(recognizePatchCommand(`sudo apply_patch <<'EOF'\n${body}\nEOF`)).toBeUndefined();
    expect(recognizePatchCommand(`apply_patch <<'EOF'\n${body}`)).toBeUndefined();
    expect(recognizePatchCommand(`apply_patch <<'EOF'\nEOF\n${body}\nEOF`)).toBeUndefined();
    expect(recognizePatchCommand("apply_patch patch.txt")).toBeUndefined();
    expect(recognizePatchCommand(`cd a; apply_patch <<'EOF'\n${body}\nEOF`)).toBeUndefined();
  });
});

describe("applyPatchResponsesTool", () => {
  it("gives a custom tool with the Lark grammar, and a strict function tool with one required string", () => {
    const grammar = applyPatchResponsesTool("grammar");
    expect(grammar).toMatchObject({
      type: "custom",
      name: "apply_patch",
      format: { type: "grammar", syntax: "lark" },
    });
    expect(grammar.format.definition).toBe(APPLY_PATCH_LARK_GRAMMAR);
    expect(APPLY_PATCH_LARK_GRAMMAR).toMatch(/^start: begin_patch section\+ end_patch$/m);
    const fn = applyPatchResponsesTool("function");
    expect(fn).toMatchObject({ type: "function", name: "apply_patch", strict: true });
    expect(fn.parameters).toEqual({
      type: "object",
      properties: { input: expect.objectContaining({ type: "string" }) },
      required: ["input"],
      additionalProperties: false,
    });
    expect(() => applyPatchResponsesTool("xml" as never)).toThrow(/form must be "grammar" or "function"/);
  });
});
