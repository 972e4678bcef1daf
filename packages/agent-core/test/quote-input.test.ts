import { describe, expect, it } from "vitest";
import {
  boundText,
  QUOTED_INPUT_MAX_CHARS,
  quoteInput,
  shortenInput,
  wellFormed,
} from "../src/quote-input.js";

describe("quoteInput", () => {
  it("quotes a short input as JSON", () => {
    expect(quoteInput("src/a.ts")).toBe('"src/a.ts"');
    expect(quoteInput('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
  });

  it("cuts a long input with an ellipsis and states its length", () => {
    const quoted = quoteInput("a".repeat(1_048_576));
    expect(quoted).toBe(`"${"a".repeat(QUOTED_INPUT_MAX_CHARS)}…" (1,048,576 chars)`);
  });

  it("never cuts a surrogate pair in half", () => {
    const text = `${"a".repeat(9)}😀tail`;
    expect(quoteInput(text, 10)).toBe(`"${"a".repeat(9)}…" (${text.length} chars)`);
    expect(quoteInput(text, 11)).toBe(`"${"a".repeat(9)}😀…" (${text.length} chars)`);
  });

  it("replaces lone surrogates so the message is well-formed", () => {
    expect(quoteInput("a\uD800b")).toBe('"a\uFFFDb"');
    expect(wellFormed("\uDC00😀\uD83D")).toBe("\uFFFD😀\uFFFD");
  });
});

describe("shortenInput", () => {
  it("shows a path unquoted, escapes control characters, cuts with its length", () => {
    expect(shortenInput("src/a.ts")).toBe("src/a.ts");
    expect(shortenInput("a\nb\u0007")).toBe("a\\nb\\u0007");
    expect(shortenInput("x".repeat(200), 5)).toBe("xxxxx… (200 chars)");
  });
});

describe("boundText", () => {
  it("keeps a short message and cuts a long one, saying how much was cut", () => {
    expect(boundText("fine")).toBe("fine");
    expect(boundText("x".repeat(30), 10)).toBe("xxxxxxxxxx… [20 more characters cut]");
  });
});
