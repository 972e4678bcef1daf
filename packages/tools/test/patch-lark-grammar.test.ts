/**
 * APPLY_PATCH_LARK_GRAMMAR, the definition of the free-form apply_patch tool, loaded by a real
 * Lark (Debian's python3-lark, which scripts/ensure-system.sh installs) and run over the patch
 * corpus and patches written for the grammar: every patch the grammar admits is one parsePatch
 * reads, and every patch parsePatch reads in its strict form (no slip it forgives) the grammar
 * admits. The slips a grammar-constrained model cannot make are listed with their reason.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { APPLY_PATCH_LARK_GRAMMAR } from "../src/patch/grammar.js";
import { parsePatch } from "../src/patch/parse.js";
import { PATCH_CORPUS } from "../src/testing/patch-corpus.js";

/** Debian's python3 (the one python3-lark installs into), not a python3 a version manager puts first. */
const PYTHON = "/usr/bin/python3";

/** Loads the grammar with Lark (Earley, as a grammar of the Responses API is written) and parses each text. */
const CHECK = `
import json, sys
from lark import Lark
from lark.exceptions import LarkError
data = json.load(sys.stdin)
parser = Lark(data["grammar"], start="start")
results = []
for text in data["texts"]:
    try:
        parser.parse(text)
        results.append(None)
    except LarkError as error:
        results.append(str(error).strip().splitlines()[0])
print(json.dumps(results))
`;

/** Whether Lark admits each text: null when it parses, else Lark's first line of error. */
function larkParse(texts: readonly string[]): (string | null)[] {
  const run = spawnSync(PYTHON, ["-c", CHECK], {
    input: JSON.stringify({ grammar: APPLY_PATCH_LARK_GRAMMAR, texts }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${PYTHON} with lark failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as (string | null)[];
}

function parses(text: string): boolean {
  try {
    parsePatch(text);
    return true;
  } catch {
    return false;
  }
}

const patch = (...lines: string[]) => `${lines.join("\n")}\n`;

/** Patches for the grammar itself, each in the form a grammar-constrained model writes. */
const VALID: Record<string, string> = {
  "add a file": patch("*** Begin Patch", "*** Add File: a.txt", "+one", "+", "+three", "*** End Patch"),
  "add an empty file": patch("*** Begin Patch", "*** Add File: empty.txt", "*** End Patch"),
  "delete a file": patch("*** Begin Patch", "*** Delete File: old.txt", "*** End Patch"),
  "update with an anchor": patch(
    "*** Begin Patch",
    "*** Update File: src/app.py",
    "@@ def main():",
    "     x = 1",
    "-    print(x)",
    "+    print(x + 1)",
    "*** End Patch",
  ),
  "update with a bare @@, two hunks": patch(
    "*** Begin Patch",
    "*** Update File: a.ts",
    "@@",
    "-a",
    "+b",
    "@@",
    " c",
    "+d",
    "*** End Patch",
  ),
  "stacked anchors": patch(
    "*** Begin Patch",
    "*** Update File: a.py",
    "@@ class Store:",
    "@@     def get(self, key):",
    "-        return self.map[key]",
    "+        return self.map.get(key)",
    "*** End Patch",
  ),
  "a hunk without @@": patch("*** Begin Patch", "*** Update File: a.txt", "-x", "+y", "*** End Patch"),
  "move and change": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "*** Move to: b.txt",
    "@@",
    "-x",
    "+y",
    "*** End Patch",
  ),
  "move alone": patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** End Patch"),
  "end of file": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@",
    " last",
    "+appended",
    "*** End of File",
    "*** End Patch",
  ),
  "empty kept and removed lines": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@",
    " ",
    "-",
    "+x",
    "*** End Patch",
  ),
  "several files": patch(
    "*** Begin Patch",
    "*** Add File: n.txt",
    "+n",
    "*** Update File: a.txt",
    "-x",
    "+y",
    "*** Delete File: d.txt",
    "*** End Patch",
  ),
  "no line break after End Patch": "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch",
  "a path with spaces and dots": patch(
    "*** Begin Patch",
    "*** Delete File: docs/My File.v2.md",
    "*** End Patch",
  ),
};

const INVALID: Record<string, string> = {
  "no Begin Patch": patch("*** Update File: a.txt", "-x", "+y", "*** End Patch"),
  "no End Patch (cut off)": patch("*** Begin Patch", "*** Update File: a.txt", "-x", "+y"),
  "no sections": patch("*** Begin Patch", "*** End Patch"),
  "an added line without +": patch("*** Begin Patch", "*** Add File: a.txt", "+one", "two", "*** End Patch"),
  "a hunk line without a prefix": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@",
    "x",
    "*** End Patch",
  ),
  "a misspelt header": patch("*** Begin Patch", "*** Modify File: a.txt", "-x", "+y", "*** End Patch"),
  "an update without hunks or move": patch("*** Begin Patch", "*** Update File: a.txt", "*** End Patch"),
  "an anchor with no lines after it": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@ def f():",
    "*** End Patch",
  ),
  "End of File before any line": patch(
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@",
    "*** End of File",
    "*** End Patch",
  ),
  "text after End Patch": patch("*** Begin Patch", "*** Delete File: a.txt", "*** End Patch", "more"),
  "an empty path": patch("*** Begin Patch", "*** Delete File: ", "*** End Patch"),
};

/**
 * Corpus patches parsePatch reads only through a slip it forgives, which a model constrained by
 * the grammar cannot write: the grammar rejects them, by design.
 */
const FORGIVEN_SLIPS: Record<string, string> = {
  "accepts the patch wrapped in a heredoc":
    "the grammar's output is the patch itself, with nothing around it",
  "reads a bare blank line in a hunk as an empty kept line":
    "the grammar writes an empty kept line as ' ', as Codex's does",
};

describe("APPLY_PATCH_LARK_GRAMMAR in Lark", () => {
  it("loads, admits every patch written for it, and rejects every broken one", () => {
    const names = [...Object.keys(VALID), ...Object.keys(INVALID)];
    const results = larkParse([...Object.values(VALID), ...Object.values(INVALID)]);
    const admitted = Object.fromEntries(names.map((name, i) => [name, results[i] === null]));
    expect(admitted).toEqual({
      ...Object.fromEntries(Object.keys(VALID).map((name) => [name, true])),
      ...Object.fromEntries(Object.keys(INVALID).map((name) => [name, false])),
    });
    // The grammar and parsePatch agree on each of them.
    for (const [name, text] of Object.entries(VALID)) expect(parses(text), name).toBe(true);
    for (const [name, text] of Object.entries(INVALID)) expect(parses(text), name).toBe(false);
  });

  it("agrees with parsePatch on every corpus patch, but for the slips parsePatch forgives", () => {
    const texts = PATCH_CORPUS.map((testCase) => testCase.patch.replaceAll("{dir}", "work"));
    const results = larkParse(texts);
    const disagreements: string[] = [];
    PATCH_CORPUS.forEach((testCase, i) => {
      const lark = results[i] === null;
      const ours = parses(texts[i] as string);
      if (lark === ours) return;
      if (!lark && ours && FORGIVEN_SLIPS[testCase.name] !== undefined) return;
      disagreements.push(
        `${testCase.name}: lark ${lark ? "admits" : `rejects (${results[i]})`}, parsePatch ${ours ? "reads it" : "refuses it"}`,
      );
    });
    expect(disagreements).toEqual([]);
    // Each forgiven slip is in the corpus and really is one the grammar rejects.
    for (const name of Object.keys(FORGIVEN_SLIPS)) {
      const i = PATCH_CORPUS.findIndex((testCase) => testCase.name === name);
      expect(i, name).toBeGreaterThanOrEqual(0);
      expect(results[i], name).not.toBeNull();
    }
  });
});
