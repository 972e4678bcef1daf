import { describe, expect, it } from "vitest";
import { encodeEditedFile } from "../src/edit/edited-bytes.js";
import { type EditRequest, planEdits } from "../src/edit/plan.js";
import { decodeText, encodeText, type TextEncodingName } from "../src/text/encoding.js";

/**
 * Plans `edits` on the file `bytes` and returns the bytes the edit tool writes, after checking
 * they are exactly the bytes of the new text encoded as a whole (the slower way it replaces).
 */
function edited(bytes: Uint8Array, edits: EditRequest[]): Buffer {
  const decoded = decodeText(bytes);
  const plan = planEdits(decoded.text, edits, { path: "f.txt" });
  const spliced = Buffer.from(encodeEditedFile(bytes, decoded, plan));
  const whole = Buffer.from(encodeText(plan.text, decoded.encoding, decoded.hasBom));
  expect(spliced.equals(whole)).toBe(true);
  return spliced;
}

const file = (text: string, encoding: TextEncodingName = "utf8", bom = false) =>
  encodeText(text, encoding, bom);

describe("encodeEditedFile: the new bytes spliced from the bytes as read", () => {
  it("splices ASCII files at the edits, first and last byte included", () => {
    const out = edited(file("start\nmiddle\nend"), [
      { oldText: "start", newText: "S" },
      { oldText: "middle", newText: "in the middle" },
      { oldText: "end", newText: "" },
    ]);
    expect(out.toString("utf8")).toBe("S\nin the middle\n");
  });

  it("finds byte offsets past multi-byte characters before, between and after edits", () => {
    const out = edited(file("caf\u00E9 \u{1F600} one\n\u65E5\u672C two \u00FC\nthree \u20AC\n"), [
      { oldText: "one", newText: "\u00E9\u00E9" },
      { oldText: "two", newText: "2" },
      { oldText: "three \u20AC", newText: "\u{1F680}" },
    ]);
    expect(out.toString("utf8")).toBe("caf\u00E9 \u{1F600} \u00E9\u00E9\n\u65E5\u672C 2 \u00FC\n\u{1F680}\n");
  });

  it("keeps a UTF-8 BOM and CRLF endings, including in replaced lines", () => {
    const out = edited(file("\u00E9one\r\ntwo\r\nthree\r\n", "utf8", true), [
      { oldText: "two\nthree", newText: "2\n3" },
    ]);
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.subarray(3).toString("utf8")).toBe("\u00E9one\r\n2\r\n3\r\n");
  });

  it("encodes UTF-16 files from the new text, with or without BOM", () => {
    for (const [encoding, bom] of [
      ["utf16le", true],
      ["utf16be", true],
      ["utf16le", false],
    ] as const) {
      const out = edited(file("hello w\u00F6rld\nsecond line\n", encoding, bom), [
        { oldText: "w\u00F6rld", newText: "there" },
        { oldText: "second", newText: "2nd" },
      ]);
      expect(decodeText(out).text).toBe("hello there\n2nd line\n");
    }
  });

  it("gives the same bytes as before when an oldText holds half of a surrogate pair", () => {
    // A lone surrogate from a JSON escape matches half of the emoji; the text path decides.
    edited(file("x\u{1F600}y\n"), [
      { oldText: "\uDE00y", newText: "z" },
      { oldText: "x", newText: "w" },
    ]);
  });
});
