/** Conformance section for the read tool: runs unchanged on any `Operations`. */

import { createHash } from "node:crypto";
import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../defaults.js";
import { createReadToolDefinition } from "../tools/read.js";
import { type ToolsConformanceEnv, textOf } from "./env.js";
import { unmarkedTextOf } from "./marker.js";

/** The text shown, without the read tool-output marker (asserted by its own test). */
const shownOf = (outcome: ToolOutcome) => unmarkedTextOf(outcome, "read");

const PNG_1X1 = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);

const numbered = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `line ${i + from}`).join("\n");

/** The read tool's behaviour list. */
export function defineReadConformance(getEnv: () => ToolsConformanceEnv): void {
  const read = createReadToolDefinition();

  describe("read", () => {
    it("shows text with line numbers and no notice when it fits", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/small.txt": "alpha\nbeta\n" });
      const out = await env.run(read, { path: "read/small.txt" });
      expect(out.isError).toBe(false);
      expect(shownOf(out)).toBe("1\talpha\n2\tbeta");
      expect(out.details).toMatchObject({ totalLines: 2, startLine: 1, endLine: 2 });
    });

    it("cuts at the line limit and names the exact total and the next offset", async () => {
      const env = getEnv();
      const lines = DEFAULTS.maxLines + 500;
      await env.fixture(env.root, { "read/long.txt": `${numbered(lines)}\n` });
      const text = shownOf(await env.run(read, { path: "read/long.txt" }));
      expect(text).toContain(`Showing lines 1-${DEFAULTS.maxLines} of ${lines}.`);
      expect(text).toContain(`Use offset=${DEFAULTS.maxLines + 1} to continue.`);
      expect(text.split("\n")[DEFAULTS.maxLines - 1]).toBe(`${DEFAULTS.maxLines}\tline ${DEFAULTS.maxLines}`);
    });

    it("honours offset and limit", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/ten.txt": numbered(10) });
      const out = await env.run(read, { path: "read/ten.txt", offset: 4, limit: 3 });
      expect(shownOf(out)).toBe(
        "4\tline 4\n5\tline 5\n6\tline 6\n\n[Showing lines 4-6 of 10. Use offset=7 to continue.]",
      );
      const last = await env.run(read, { path: "read/ten.txt", offset: 10 });
      expect(shownOf(last)).toBe("10\tline 10");
    });

    it("shows a window of empty lines with their numbers and says they are empty", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/blank.txt": "a\n\nb\n\n\nc\n" });
      const one = await env.run(read, { path: "read/blank.txt", offset: 2, limit: 1 });
      expect(one.isError).toBe(false);
      expect(shownOf(one)).toBe(
        "2\t\n\n[Showing lines 2-2 of 6. Use offset=3 to continue. Line 2 is empty.]",
      );
      const two = await env.run(read, { path: "read/blank.txt", offset: 4, limit: 2 });
      expect(shownOf(two)).toBe(
        "4\t\n5\t\n\n[Showing lines 4-5 of 6. Use offset=6 to continue. Lines 4-5 are empty.]",
      );
      // A window ending on an empty line keeps it (the newline before it is not a line end).
      const head = await env.run(read, { path: "read/blank.txt", limit: 2 });
      expect(shownOf(head)).toBe("1\ta\n2\t\n\n[Showing lines 1-2 of 6. Use offset=3 to continue.]");
      expect(head.details).toMatchObject({ startLine: 1, endLine: 2 });
    });

    it("refuses an offset past the end and states the total", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/three.txt": "a\nb\nc\n" });
      const out = await env.run(read, { path: "read/three.txt", offset: 9 });
      expect(out.isError).toBe(true);
      expect(shownOf(out)).toContain("it has 3 lines");
      expect(env.ctx.reads.get(env.path("read/three.txt"))).toBeUndefined();
    });

    it("cuts by bytes on a line boundary and says which limit", async () => {
      const env = getEnv();
      const line = "x".repeat(1000);
      await env.fixture(env.root, { "read/wide.txt": Array.from({ length: 200 }, () => line).join("\n") });
      const out = await env.run(read, { path: "read/wide.txt" });
      const text = shownOf(out);
      expect(text).toMatch(/Showing lines 1-\d+ of 200 \(50 KB limit\)\. Use offset=\d+ to continue\./);
      expect(out.details).toMatchObject({ truncatedBy: "bytes", totalLines: 200 });
      for (const shown of text.split("\n\n")[0]!.split("\n")) expect(shown).toMatch(/^\s*\d+\tx{1000}$/);
    });

    it("cuts an overlong line with a notice", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/minified.js": `${"y".repeat(DEFAULTS.maxBytes * 2)}\nnext\n` });
      const out = await env.run(read, { path: "read/minified.js" });
      const text = shownOf(out);
      expect(text).toContain(`Line 1 is ${DEFAULTS.maxBytes * 2} characters`);
      expect(text).toContain("Use offset=2 to continue");
    });

    it("refuses a binary file and names its type", async () => {
      const env = getEnv();
      const elf = new Uint8Array(64);
      elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
      await env.fixture(env.root, { "read/prog": elf, "read/blob.bin": Uint8Array.from([1, 2, 0, 3, 4]) });
      const out = await env.run(read, { path: "read/prog" });
      expect(out).toMatchObject({ isError: true, errorCode: "binary_file" });
      expect(shownOf(out)).toContain("ELF executable");
      expect(shownOf(await env.run(read, { path: "read/blob.bin" }))).toContain("binary data");
    });

    it("returns png, jpeg, gif and webp as image content", async () => {
      const env = getEnv();
      const gif = Uint8Array.from(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
      const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
      const webp = Uint8Array.from([...Buffer.from("RIFF"), 4, 0, 0, 0, ...Buffer.from("WEBPVP8 ")]);
      await env.fixture(env.root, {
        "read/a.png": PNG_1X1,
        "read/b.jpg": jpeg,
        "read/c.gif": gif,
        "read/d.webp": webp,
      });
      for (const [file, mimeType] of [
        ["a.png", "image/png"],
        ["b.jpg", "image/jpeg"],
        ["c.gif", "image/gif"],
        ["d.webp", "image/webp"],
      ] as const) {
        const out = await env.run(read, { path: `read/${file}` });
        const image = out.content.find((part) => part.type === "image");
        expect(image, file).toMatchObject({ type: "image", mimeType });
      }
      const png = (await env.run(read, { path: "read/a.png" })).content.find((part) => part.type === "image");
      expect(png && "data" in png ? png.data : "").toBe(Buffer.from(PNG_1X1).toString("base64"));
    });

    it("strips a UTF-8 BOM and CR of CRLF lines", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/bom.txt": "\ufeffone\r\ntwo\r\n" });
      const out = await env.run(read, { path: "read/bom.txt" });
      expect(shownOf(out)).toBe("1\tone\n2\ttwo");
      expect(out.details).toMatchObject({ hasBom: true, encoding: "utf8" });
    });

    it("decodes UTF-16 LE and BE", async () => {
      const env = getEnv();
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo\nwörld\n", "utf16le")]);
      const be = Buffer.from(le);
      be.swap16();
      await env.fixture(env.root, { "read/le.txt": Uint8Array.from(le), "read/be.txt": Uint8Array.from(be) });
      for (const file of ["le.txt", "be.txt"]) {
        const out = await env.run(read, { path: `read/${file}` });
        expect(shownOf(out).split("\n\n")[0], file).toBe("1\théllo\n2\twörld");
      }
    });

    it("shows invalid UTF-8 as U+FFFD with a notice naming the next step", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/latin1.txt": Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
      const out = await env.run(read, { path: "read/latin1.txt" });
      expect(out.isError).toBe(false);
      expect(shownOf(out)).toBe(
        "1\tcaf\ufffd\n\n[The file is not valid UTF-8; invalid bytes are shown as U+FFFD. edit refuses such a file and write would replace those bytes: change it with bash if you must.]",
      );
      expect(out.details).toMatchObject({ lossy: true });
    });

    it("answers a directory with a hint to use ls", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/dir/x.txt": "x" });
      const out = await env.run(read, { path: "read/dir" });
      expect(out).toMatchObject({ isError: true, errorCode: "is_directory" });
      expect(shownOf(out)).toContain("Use ls");
    });

    it("answers a missing file with near-miss suggestions", async () => {
      const env = getEnv();
      await env.fixture(env.root, {
        "read/near/app.ts": "",
        "read/near/api.ts": "",
        "read/near/zebra.md": "",
      });
      const out = await env.run(read, { path: "read/near/apq.ts" });
      expect(out).toMatchObject({ isError: true, errorCode: "not_found" });
      expect(shownOf(out)).toContain("Did you mean read/near/api.ts, read/near/app.ts?");
      const wrongDir = await env.run(read, { path: "read/naer/app.ts" });
      expect(shownOf(wrongDir)).toContain("Did you mean read/near/app.ts, read/near/api.ts?");
      await env.fixture(env.root, Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`read/many/x${n}.ts`, ""])));
      const many = await env.run(read, { path: "read/many/x.ts" });
      expect((many.details as { suggestions: string[] }).suggestions).toEqual([
        "read/many/x1.ts",
        "read/many/x2.ts",
        "read/many/x3.ts",
      ]);
      const none = await env.run(read, { path: "read/near/qqqqqqqq.rs" });
      expect(shownOf(none)).toContain("Use find or ls");
    });

    it("records the hash of the whole file in the read ledger", async () => {
      const env = getEnv();
      const content = `${numbered(DEFAULTS.maxLines + 10)}\n`;
      await env.fixture(env.root, { "read/ledger.txt": content });
      await env.run(read, { path: "read/ledger.txt", limit: 5 });
      const record = env.ctx.reads.get(env.path("read/ledger.txt"));
      expect(record?.sha256).toBe(createHash("sha256").update(content).digest("hex"));
    });

    it("shows an empty file as empty", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/empty.txt": "" });
      const out = await env.run(read, { path: "read/empty.txt" });
      expect(out.isError).toBe(false);
      expect(shownOf(out)).toBe("(read/empty.txt is empty)");
    });

    it("normalises @, file://, ~ and unicode spaces in paths", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/my notes.txt": "hi\n" });
      for (const path of [
        "@read/my notes.txt",
        "read/my\u00a0notes.txt",
        `file://${env.path("read/my%20notes.txt")}`,
      ]) {
        const out = await env.run(read, { path });
        expect(shownOf(out), path).toBe("1\thi");
      }
    });

    it("refuses a path outside the workspace and shows where it resolved", async () => {
      const env = getEnv();
      const out = await env.run(read, { path: "../../../../../../../../etc/hostname" });
      expect(out).toMatchObject({ isError: true, errorCode: "outside_workspace" });
      expect(shownOf(out)).toContain("/etc/hostname");
    });

    it("refuses a link inside the workspace that points outside", async () => {
      const env = getEnv();
      await env.fixture(env.root, { "read/escape": { symlink: "/etc" } });
      const out = await env.run(read, { path: "read/escape/hostname" });
      expect(out).toMatchObject({ isError: true, errorCode: "outside_workspace" });
    });

    it("marks text as tool output, removes escapes and control characters, and redacts secrets", async () => {
      const env = getEnv();
      const aws = "AKIAIOSFODNN7EXAMPLE";
      await env.fixture(env.root, {
        "read/untrusted.env": `\u001b[31mred\u001b[0m\u0007\nAWS_KEY_ID=${aws}\nAPI_KEY=hunter2-secret\nplain\n`,
      });
      const out = await env.run(read, { path: "read/untrusted.env" });
      expect(textOf(out)).toBe(
        [
          '<tool-output source="read">',
          "1\tred",
          "2\tAWS_KEY_ID=[REDACTED:aws-access-key]",
          "3\tAPI_KEY=[REDACTED:assignment]",
          "4\tplain",
          "</tool-output>",
          "",
          "[Control characters and escape sequences removed from 1 line; bash with cat -v read/untrusted.env shows them. " +
            "Secrets redacted on 2 lines (assignment, aws-access-key), shown as [REDACTED:kind]; to edit such a line, copy it with its placeholder into oldText, and repeat the placeholder in newText to keep the secret.]",
        ].join("\n"),
      );
      expect(JSON.stringify(out.details)).not.toContain(aws);
      expect(out.details).toMatchObject({
        totalLines: 4,
        sanitized: { controlLines: 1, redactedLines: 2, redactedKinds: ["assignment", "aws-access-key"] },
      });
    });
  });
}
