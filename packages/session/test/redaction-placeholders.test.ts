/**
 * `[REDACTED:<kind>]` in an edit's oldText stands for the hidden value at that place; in newText
 * it writes that value back. Unique or refused, never a placeholder written into a file.
 */

import { describe, expect, it } from "vitest";
import { expandRedactedPlaceholders, redactSecrets } from "../src/index.js";

const KEY = "Xk9mP2vL8qR4nT7wZa3B";
const ENV = `REGION=eu-west-1\nAPI_KEY=${KEY}\nDEBUG=1\n`;

describe("expandRedactedPlaceholders", () => {
  it("matches a placeholder against the hidden value and writes it back from newText", () => {
    const shown = redactSecrets(ENV, "config");
    expect(shown).toContain("API_KEY=[REDACTED:assignment]");
    const out = expandRedactedPlaceholders(
      ENV,
      "API_KEY=[REDACTED:assignment]\nDEBUG=1",
      "# rotated monthly\nAPI_KEY=[REDACTED:assignment]\nDEBUG=0",
      "config",
    );
    expect(out).toEqual({
      ok: true,
      oldText: `API_KEY=${KEY}\nDEBUG=1`,
      newText: `# rotated monthly\nAPI_KEY=${KEY}\nDEBUG=0`,
      expanded: 2,
      revealed: [{ value: KEY, kind: "assignment" }],
    });
  });

  it("leaves texts without placeholders, and placeholders the file holds as text, as they are", () => {
    expect(expandRedactedPlaceholders(ENV, "DEBUG=1", "DEBUG=0", "config")).toEqual({
      ok: true,
      oldText: "DEBUG=1",
      newText: "DEBUG=0",
      expanded: 0,
      revealed: [],
    });
    const doc = "Output shows [REDACTED:jwt].\n";
    expect(
      expandRedactedPlaceholders(doc, "shows [REDACTED:jwt].", "shows [REDACTED:jwt] now.", "output"),
    ).toMatchObject({
      ok: true,
      expanded: 0,
    });
  });

  it("maps several placeholders in order, each to its own value", () => {
    const file = `A_TOKEN=${KEY}\nB_TOKEN=Qw8eR1tY4uI7oP0aS3dF\n`;
    const out = expandRedactedPlaceholders(
      file,
      "A_TOKEN=[REDACTED:assignment]\nB_TOKEN=[REDACTED:assignment]",
      "B_TOKEN=[REDACTED:assignment]\nA_TOKEN=[REDACTED:assignment]",
      "config",
    );
    // The n-th placeholder of a kind in newText is the n-th in oldText: order, not names.
    expect(out).toMatchObject({ ok: true, newText: `B_TOKEN=${KEY}\nA_TOKEN=Qw8eR1tY4uI7oP0aS3dF` });
  });

  it("refuses when the text around the placeholder is not the file's, or matches twice", () => {
    expect(expandRedactedPlaceholders(ENV, "API_KEY = [REDACTED:assignment]", "x", "config")).toEqual({
      ok: false,
      refusal: "not_found",
      field: "oldText",
      placeholders: ["[REDACTED:assignment]"],
    });
    const twice = `API_KEY=${KEY}\nAPI_KEY=Qw8eR1tY4uI7oP0aS3dF\n`;
    expect(
      expandRedactedPlaceholders(twice, "API_KEY=[REDACTED:assignment]", "API_KEY=new", "config"),
    ).toMatchObject({
      ok: false,
      refusal: "ambiguous",
    });
    // A placeholder of another kind than the hidden value's matches nothing.
    expect(expandRedactedPlaceholders(ENV, "API_KEY=[REDACTED:jwt]", "x", "config")).toMatchObject({
      ok: false,
      refusal: "not_found",
    });
  });

  it("refuses a placeholder in newText that no placeholder of oldText stands for", () => {
    expect(
      expandRedactedPlaceholders(ENV, "DEBUG=1", "DEBUG=1\nAPI_KEY=[REDACTED:assignment]", "config"),
    ).toEqual({
      ok: false,
      refusal: "unmatched_in_new",
      field: "newText",
      placeholders: ["[REDACTED:assignment]"],
    });
    expect(
      expandRedactedPlaceholders(ENV, "API_KEY=[REDACTED:assignment]", "API_KEY=[REDACTED:jwt]", "config"),
    ).toMatchObject({ ok: false, refusal: "unmatched_in_new" });
  });

  it("edits around a private key's hidden body lines", () => {
    const body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUA", "AAAAAA=="];
    const file = [
      "deploy_key: |",
      "  -----BEGIN OPENSSH PRIVATE KEY-----",
      ...body.map((l) => `  ${l}`),
      "  -----END OPENSSH PRIVATE KEY-----",
      "",
    ].join("\n");
    const shown = redactSecrets(file, "config").split("\n").slice(0, 5).join("\n");
    const out = expandRedactedPlaceholders(file, shown, shown.replace("deploy_key", "ssh_key"), "config");
    expect(out).toMatchObject({
      ok: true,
      oldText: file.slice(0, -1),
      newText: file.slice(0, -1).replace("deploy_key", "ssh_key"),
    });
  });
});
