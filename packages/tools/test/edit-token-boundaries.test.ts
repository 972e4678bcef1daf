/**
 * An oldText that starts or ends with a letter, digit or underscore matches whole tokens only:
 * never inside a longer identifier or number, in the exact and the fuzzy pass; a JSON number or
 * boolean for oldText/newText is refused before it can be coerced.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyAgentTool, invokeTool, isToolError } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EditRequest, planEdits } from "../src/edit/plan.js";
import { onTokenBoundaries, tokenAround } from "../src/edit/token-boundary.js";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition } from "../src/tools/edit.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.txt" });

function refusal(fn: () => unknown): { code: string; message: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("token boundaries: exact pass", () => {
  it("does not match a number inside a longer number, and shows the token and its line", () => {
    const text = "spec:\n  initialDelaySeconds: 300\n  periodSeconds: 10\n";
    const error = refusal(() => plan(text, [{ oldText: "30", newText: "60" }]));
    expect(error.code).toBe("no_match");
    expect(error.message).toContain('inside "300": initialDelaySeconds: 300');
    expect(error.message).toContain("line 2");
    expect(error.details).toMatchObject({
      reason: "inside_token",
      insideToken: [{ line: 2, tokens: ["300"] }],
    });
  });

  it("does not match an identifier inside a longer identifier (both ends)", () => {
    expect(refusal(() => plan("subtotal = 1\n", [{ oldText: "total", newText: "sum" }])).message).toContain(
      '"subtotal"',
    );
    expect(refusal(() => plan("get_all()\n", [{ oldText: "get", newText: "fetch" }])).message).toContain(
      '"get_all"',
    );
  });

  it("treats a decimal as one token: 1.5 is not inside 1.50, nor 5 inside 1.5", () => {
    expect(refusal(() => plan("price = 1.50\n", [{ oldText: "1.5", newText: "2" }])).code).toBe("no_match");
    expect(refusal(() => plan("price = 1.5\n", [{ oldText: "5", newText: "6" }])).message).toContain('"1.5"');
    expect(plan("v = 1.5.\n", [{ oldText: "1.5", newText: "2" }]).text).toBe("v = 2.\n");
  });

  it("applies the one whole-token place when the others are inside longer tokens", () => {
    const result = plan("subtotal = total + 1\n", [{ oldText: "total", newText: "sum" }]);
    expect(result.text).toBe("subtotal = sum + 1\n");
    expect(result.outcomes[0]).toMatchObject({ matcher: "exact", occurrences: 1 });
  });

  it("replaceAll changes whole tokens only", () => {
    const result = plan("get(); get_all(); x.get()\n", [
      { oldText: "get", newText: "fetch", replaceAll: true },
    ]);
    expect(result.text).toBe("fetch(); get_all(); x.fetch()\n");
  });

  it("does not let an occurrence inside a token hide a good one that overlaps it", () => {
    const result = plan("xab ab ab\n", [{ oldText: "ab ab", newText: "Z" }]);
    expect(result.text).toBe("xab Z\n");
  });

  it("leaves a side unconstrained where oldText starts or ends with punctuation or space", () => {
    expect(plan("foo(bar)\n", [{ oldText: "(bar", newText: "(baz" }]).text).toBe("foo(baz)\n");
    expect(plan("a.b = 1\n", [{ oldText: "b = 1", newText: "b = 2" }]).text).toBe("a.b = 2\n");
    expect(plan("max-width: 3px\n", [{ oldText: "width", newText: "height" }]).text).toBe(
      "max-height: 3px\n",
    );
  });

  it("counts letters of any script, digits and underscores as token characters", () => {
    expect(refusal(() => plan("größe = 1\n", [{ oldText: "öße", newText: "x" }])).code).toBe("no_match");
    expect(onTokenBoundaries("_id", 1, 3)).toBe(false);
    expect(onTokenBoundaries("x = 𝑥1", 4, 6)).toBe(false);
    expect(tokenAround("a = 12.50;", 5, 7)).toEqual({ start: 4, end: 9 });
  });
});

describe("token boundaries: fuzzy pass", () => {
  it("does not match a fuzzy oldText inside a longer token either", () => {
    // Curly quotes force the fuzzy pass; the only match ends inside `countdown`.
    const text = "label(\u201Cgo\u201D) + countdown\n";
    const error = refusal(() => plan(text, [{ oldText: 'label("go") + count', newText: "x" }]));
    expect(error.code).toBe("no_match");
    expect(error.message).toContain('"countdown"');
  });

  it("finds the whole-token fuzzy place past one inside a token on the same line", () => {
    const text = "say(\u201Cx\u201D)ok say(\u201Cx\u201D) ok\n";
    const result = plan(text, [{ oldText: 'say("x") ok', newText: "done" }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:quotes");
    expect(result.text).toBe("say(\u201Cx\u201D)ok done\n");
  });
});

describe("token boundaries: JSON numbers and booleans", () => {
  let dir: string;
  let edit: AnyAgentTool;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tackle-edit-token-"));
    const ctx = createLocalToolContext({ cwd: dir });
    edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a number oldText (its spelling is lost) and writes nothing", async () => {
    await writeFile(join(dir, "p.py"), "price = 1.50\n");
    const outcome = await invokeTool(edit, { path: "p.py", edits: [{ oldText: 1.5, newText: 2 }] });
    expect(outcome).toMatchObject({ isError: true, errorCode: "invalid_arguments" });
    const text = (outcome.content[0] as { text: string }).text;
    expect(text).toContain("edits[0].oldText: expected string, received number 1.5.");
    expect(text).toContain("edits[0].newText: expected string, received number 2.");
    expect(text).toContain("loses its spelling once parsed");
    expect(await readFile(join(dir, "p.py"), "utf8")).toBe("price = 1.50\n");
  });

  it("refuses a boolean, in the legacy top-level shape too", async () => {
    await writeFile(join(dir, "c.json"), '{"on": true}\n');
    const outcome = await invokeTool(edit, { path: "c.json", old_string: true, new_string: "false" });
    expect(outcome).toMatchObject({ isError: true, errorCode: "invalid_arguments" });
    expect((outcome.content[0] as { text: string }).text).toContain("received boolean true");
    expect(await readFile(join(dir, "c.json"), "utf8")).toBe('{"on": true}\n');
  });

  it("applies the same edit sent as strings", async () => {
    await writeFile(join(dir, "p.py"), "price = 1.50\n");
    const outcome = await invokeTool(edit, { path: "p.py", edits: [{ oldText: "1.50", newText: "2.00" }] });
    expect(outcome.isError).toBe(false);
    expect(await readFile(join(dir, "p.py"), "utf8")).toBe("price = 2.00\n");
  });
});
