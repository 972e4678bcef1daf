/**
 * File tools treat file content as untrusted: escapes and control characters removed, secrets
 * redacted, output marked; edit and write refuse redaction placeholders. Real files in a temp dir.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { type ToolSession, wrapToolDefinition } from "@tackle/extensions";
import { redactSecrets } from "@tackle/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { markToolOutput } from "../src/shell/sanitize.js";
import { REDACTED_PLACEHOLDER, sanitizeLines, stripToolOutputMarker } from "../src/text/untrusted.js";
import { createEditToolDefinition } from "../src/tools/edit.js";
import { createFindToolDefinition } from "../src/tools/find.js";
import { createGrepToolDefinition } from "../src/tools/grep.js";
import { createLsToolDefinition } from "../src/tools/ls.js";
import { createReadToolDefinition } from "../src/tools/read.js";
import { createWriteToolDefinition } from "../src/tools/write.js";

const AWS = "AKIAIOSFODNN7EXAMPLE";
const GITHUB = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
const API = "s3cr3t-api-value-42";
const ENV = `# settings\nREGION=eu-west-1\nAWS_ACCESS_KEY_ID=${AWS}\nGH=${GITHUB}\nAPI_KEY=${API}\nDEBUG=1\n`;
const ANSI =
  "plain first\n\u001b[31mred text\u001b[0m here\nbell\u0007 and\u0008 back\u202e\ttab kept\nlast\n";
const SECRETS = [AWS, GITHUB, API];

let dir: string;
let ctx: ToolSession;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-untrusted-")));
  await writeFile(join(dir, ".env"), ENV);
  await writeFile(join(dir, "ansi.txt"), ANSI);
  await writeFile(join(dir, "plain.txt"), "alpha\nbeta\n");
  ctx = createLocalToolContext({ cwd: dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tools = {
  read: () => wrapToolDefinition(createReadToolDefinition(), () => ctx),
  grep: () => wrapToolDefinition(createGrepToolDefinition(), () => ctx),
  find: () => wrapToolDefinition(createFindToolDefinition(), () => ctx),
  ls: () => wrapToolDefinition(createLsToolDefinition(), () => ctx),
  edit: () => wrapToolDefinition(createEditToolDefinition(), () => ctx),
  write: () => wrapToolDefinition(createWriteToolDefinition(), () => ctx),
};

function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("the shared sanitising step", () => {
  it("recognises every placeholder the shell's redaction writes", () => {
    const redacted = redactSecrets(
      `${ENV}url=https://user:pa55word@host/x\nAuthorization: Bearer abcdefghijklmnopqrstuvwx\n`,
    );
    const found = redacted.match(REDACTED_PLACEHOLDER) ?? [];
    expect(found.length).toBe(redacted.split("[REDACTED:").length - 1);
    expect(found.length).toBeGreaterThanOrEqual(5);
  });

  it("takes off the exact marker the shell writes, and nothing else", () => {
    expect(stripToolOutputMarker(markToolOutput("  1\tx\n  2\ty", "read"))).toBe("  1\tx\n  2\ty");
    expect(stripToolOutputMarker(`${markToolOutput("a", "grep")}\n`)).toBe("a");
    expect(stripToolOutputMarker("a\n</tool-output>")).toBe("a");
    expect(stripToolOutputMarker("no marker\nhere")).toBe("no marker\nhere");
  });

  it("keeps one line per line and redacts a private key's body up to its END line, markers shown", () => {
    const lines = [
      "before",
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEpAIBAAKCAQEA",
      "-----END RSA PRIVATE KEY-----",
      "after",
    ];
    const safe = sanitizeLines(lines);
    expect(safe.lines).toEqual([
      "before",
      "-----BEGIN RSA PRIVATE KEY-----",
      "[REDACTED:private-key]",
      "-----END RSA PRIVATE KEY-----",
      "after",
    ]);
    expect(safe).toMatchObject({ redactedLines: 1, controlLines: 0, redactedKinds: ["private-key"] });
  });
});

describe("read, grep, find and ls show untrusted text safely", () => {
  it("read removes escapes and control characters, keeps tab, line numbers and totals, and says so", async () => {
    const out = await invokeTool(tools.read(), { path: "ansi.txt" });
    const text = textOf(out);
    expect(text).toBe(
      [
        '<tool-output source="read">',
        "1\tplain first",
        "2\tred text here",
        "3\tbell and back\ttab kept",
        "4\tlast",
        "</tool-output>",
        "",
        "[Control characters and escape sequences removed from 2 lines; bash with cat -v ansi.txt shows them.]",
      ].join("\n"),
    );
    expect(out.details).toMatchObject({
      totalLines: 4,
      endLine: 4,
      sanitized: { controlLines: 2, redactedLines: 0, redactedKinds: [] },
    });
  });

  it("grep removes escapes and control characters from matched lines and says so", async () => {
    const out = await invokeTool(tools.grep(), { pattern: "red|bell", path: "ansi.txt" });
    const text = textOf(out);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain("ansi.txt:2: red text here");
    expect(text).toContain(
      "[Control characters and escape sequences removed from 2 lines; bash with cat -v ansi.txt shows them.]",
    );
    expect(out.details).toMatchObject({ sanitized: { controlLines: 2 } });
  });

  it("read redacts an AWS key, a GitHub token and API_KEY=..., says so, and details carry no secret", async () => {
    const out = await invokeTool(tools.read(), { path: ".env" });
    const text = textOf(out);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain("3\tAWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]");
    expect(text).toContain("4\tGH=[REDACTED:github-token]");
    expect(text).toContain("5\tAPI_KEY=[REDACTED:assignment]");
    expect(text).toContain("2\tREGION=eu-west-1");
    expect(text).toContain(
      "[Secrets redacted on 3 lines (assignment, aws-access-key, github-token), shown as [REDACTED:kind]; to edit such a line, copy it with its placeholder into oldText, and repeat the placeholder in newText to keep the secret.]",
    );
    const details = JSON.stringify(out.details);
    for (const secret of SECRETS) expect(details).not.toContain(secret);
    expect(out.details).toMatchObject({ totalLines: 6, sanitized: { redactedLines: 3, controlLines: 0 } });
  });

  it("grep redacts the same secrets, says so, and details carry no secret", async () => {
    const out = await invokeTool(tools.grep(), { pattern: "=", path: "." });
    const text = textOf(out);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain(".env:3: AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]");
    expect(text).toContain(".env:5: API_KEY=[REDACTED:assignment]");
    expect(text).toContain("Secrets redacted on 3 lines (assignment, aws-access-key, github-token)");
    const details = JSON.stringify(out.details);
    for (const secret of SECRETS) expect(details).not.toContain(secret);
  });

  it("leaves ordinary text as it was apart from the marker", async () => {
    const read = await invokeTool(tools.read(), { path: "plain.txt" });
    expect(textOf(read)).toBe('<tool-output source="read">\n1\talpha\n2\tbeta\n</tool-output>');
    expect(read.details).not.toHaveProperty("sanitized");
    const grep = await invokeTool(tools.grep(), { pattern: "beta", path: "plain.txt" });
    expect(textOf(grep)).toBe('<tool-output source="grep">\nplain.txt:2: beta\n</tool-output>');
    const find = await invokeTool(tools.find(), { pattern: "plain.*" });
    expect(textOf(find)).toBe('<tool-output source="find">\nplain.txt\n</tool-output>');
  });

  it("find and ls show crafted names without control characters and link targets without credentials", async () => {
    const sub = join(dir, "names");
    await mkdir(sub);
    await writeFile(join(sub, "evil\u001b[2Jname.txt"), "");
    await symlink("https://deploy:hunter2pass@example.com/repo", join(sub, "remote"));
    const find = await invokeTool(tools.find(), { pattern: "*.txt", path: "names" });
    expect(textOf(find)).toContain("names/evilname.txt");
    expect(textOf(find)).not.toMatch(CONTROL);
    expect(textOf(find)).toContain("Control characters and escape sequences removed from 1 line");
    const ls = await invokeTool(tools.ls(), { path: "names" });
    expect(textOf(ls)).toContain(
      "remote -> https://deploy:[REDACTED:url-credentials]@example.com/repo (broken link)",
    );
    expect(textOf(ls)).not.toContain("hunter2pass");
    expect(textOf(ls)).toContain("evil\\x1b[2Jname.txt");
    expect(textOf(ls)).toContain("Secrets redacted on 1 line (url-credentials)");
  });
});

describe("edit matches redaction placeholders to hidden values; write refuses them", () => {
  it("edit changes a line copied from read with its placeholder, keeping the secret, and never shows it", async () => {
    const read = textOf(await invokeTool(tools.read(), { path: ".env" }));
    const copied = read.split("\n").find((line) => line.startsWith("5\t")) as string;
    expect(copied).toBe("5\tAPI_KEY=[REDACTED:assignment]");
    const out = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: copied.slice(2), newText: "# rotated monthly\nAPI_KEY=[REDACTED:assignment]" }],
      dryRun: true,
    });
    expect(out.isError).toBe(false);
    expect(textOf(out)).toContain("+# rotated monthly");
    expect(textOf(out)).toContain(" API_KEY=[REDACTED:assignment]");
    expect(textOf(out)).not.toContain(API);
    const written = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [
        {
          oldText: "API_KEY=[REDACTED:assignment]\nDEBUG=1",
          newText: "API_KEY=[REDACTED:assignment]\nDEBUG=2",
        },
      ],
    });
    expect(written.isError).toBe(false);
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(ENV.replace("DEBUG=1", "DEBUG=2"));
    await writeFile(join(dir, ".env"), ENV);
  });

  it("edit refuses a placeholder whose surroundings are not the file's, without showing the secret", async () => {
    await invokeTool(tools.read(), { path: ".env" });
    const out = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: "API_KEY = [REDACTED:assignment]", newText: "API_KEY=rotated" }],
    });
    expect(out).toMatchObject({ isError: true, errorCode: "redacted_text" });
    expect(textOf(out)).toBe(
      "edits[0].oldText contains [REDACTED:assignment]: a secret that read or grep hid. With the hidden value put back, oldText is not in .env: around a placeholder oldText must match the file character for character, whole words. Nothing was written. Copy the lines again from a fresh read of the file, placeholders included, then retry, or change that line with bash.",
    );
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(ENV);
  });

  it("a refusal after a placeholder was expanded does not show the secret", async () => {
    await invokeTool(tools.read(), { path: ".env" });
    // The placeholder expands; the elision in newText is then refused, quoting oldText's lines.
    const out = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [
        {
          oldText: "GH=[REDACTED:github-token]\nAPI_KEY=[REDACTED:assignment]\nDEBUG=1",
          newText: "// ... existing code ...\nDEBUG=2",
        },
      ],
    });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("[REDACTED:assignment]");
    for (const secret of SECRETS) expect(textOf(out)).not.toContain(secret);
    for (const secret of SECRETS) expect(JSON.stringify(out.details ?? {})).not.toContain(secret);
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(ENV);
  });

  it("edit refuses a placeholder in newText, and edits beside a secret still work after a redacted read", async () => {
    await invokeTool(tools.read(), { path: ".env" });
    const refused = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: "DEBUG=1", newText: "DEBUG=1\nAPI_KEY=[REDACTED:assignment]" }],
    });
    expect(refused).toMatchObject({ isError: true, errorCode: "redacted_text" });
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(ENV);
    const ok = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: "DEBUG=1", newText: "DEBUG=0" }],
    });
    expect(ok.isError).toBe(false);
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(ENV.replace("DEBUG=1", "DEBUG=0"));
    expect(textOf(ok)).not.toContain(API);
  });

  it("edit's diff and not-found hint show secrets of nearby lines redacted", async () => {
    await invokeTool(tools.read(), { path: ".env" });
    const current = await readFile(join(dir, ".env"), "utf8");
    const dry = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: "GH=", newText: "GITHUB=" }],
      dryRun: true,
    });
    expect(textOf(dry)).toContain("+GITHUB=[REDACTED:github-token]");
    expect(textOf(dry)).toContain(" API_KEY=[REDACTED:assignment]");
    for (const secret of SECRETS) expect(textOf(dry)).not.toContain(secret);
    const missing = await invokeTool(tools.edit(), {
      path: ".env",
      edits: [{ oldText: "REGION=eu-west-1\nAWS_ACCESS_KEY_ID=wrong\nGH=x\nAPI_KEY=other", newText: "x" }],
    });
    expect(missing).toMatchObject({ isError: true, errorCode: "no_match" });
    expect(textOf(missing)).toContain("API_KEY=[REDACTED:assignment]");
    for (const secret of SECRETS) expect(textOf(missing)).not.toContain(secret);
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(current);
  });

  it("edit matches oldText copied with the marker and line numbers", async () => {
    await writeFile(join(dir, "copy.ts"), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const shown = textOf(await invokeTool(tools.read(), { path: "copy.ts" }));
    const block = shown.split("\n").slice(0, 3).join("\n");
    expect(block).toBe('<tool-output source="read">\n1\tconst a = 1;\n2\tconst b = 2;');
    const out = await invokeTool(tools.edit(), {
      path: "copy.ts",
      edits: [{ oldText: block, newText: '<tool-output source="read">\n1\tconst a = 10;\n2\tconst b = 2;' }],
    });
    expect(out.isError).toBe(false);
    expect(await readFile(join(dir, "copy.ts"), "utf8")).toBe("const a = 10;\nconst b = 2;\nconst c = 3;\n");
  });

  it("write refuses content with a placeholder, over a secret or as a new file", async () => {
    await invokeTool(tools.read(), { path: ".env" });
    const before = await readFile(join(dir, ".env"), "utf8");
    const redacted = before.replace(`API_KEY=${API}`, "API_KEY=[REDACTED:assignment]");
    const out = await invokeTool(tools.write(), { path: ".env", content: redacted });
    expect(out).toMatchObject({ isError: true, errorCode: "redacted_text" });
    expect(textOf(out)).toBe(
      "content contains [REDACTED:assignment]: a placeholder for a secret that read or grep redacted, which would replace the real value. Nothing was written to .env. Change the lines with edit instead (a placeholder copied into oldText and newText keeps its secret), or use bash.",
    );
    expect(await readFile(join(dir, ".env"), "utf8")).toBe(before);
    const fresh = await invokeTool(tools.write(), {
      path: "new.env",
      content: "TOKEN=[REDACTED:assignment]\n",
    });
    expect(fresh).toMatchObject({ isError: true, errorCode: "redacted_text" });
    execFileSync("test", ["!", "-e", join(dir, "new.env")]);
  });

  it("write keeps a placeholder the file already holds as text", async () => {
    await writeFile(join(dir, "doc.md"), "Output shows [REDACTED:jwt].\n");
    await invokeTool(tools.read(), { path: "doc.md" });
    const out = await invokeTool(tools.write(), {
      path: "doc.md",
      content: "Output shows [REDACTED:jwt] now.\n",
    });
    expect(out.isError).toBe(false);
    expect(await readFile(join(dir, "doc.md"), "utf8")).toBe("Output shows [REDACTED:jwt] now.\n");
  });
});
