import { createHash } from "node:crypto";
import { copyFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { redactSecrets } from "@tackle/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutputCapture } from "../src/shell/capture.js";
import { collapseCarriageReturns, markToolOutput, stripControl } from "../src/shell/sanitize.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createShellTestEnv, type ShellTestEnv, textOf } from "./shell-helpers.js";

const fixture = fileURLToPath(new URL("./fixtures/malicious-output.sh", import.meta.url));
let env: ShellTestEnv;
const bash = createBashToolDefinition();

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  await env.dispose();
});

describe("model text is sanitised", () => {
  it("removes ANSI escapes, control characters and bidi overrides", () => {
    expect(stripControl("\u001b[31mred\u001b[0m \u001b]0;title\u0007x\u0000y\u0008z\u202eq\tok")).toBe(
      "red xyzq\tok",
    );
  });

  it("collapses carriage-return progress bars to their final state", () => {
    expect(collapseCarriageReturns("a 1%\ra 50%\ra 100%\nnext\r\nline")).toBe("a 100%\nnext\nline");
    expect(collapseCarriageReturns("done\r")).toBe("done");
  });

  it("redacts known secret shapes and keeps the rest of the line", () => {
    const text = redactSecrets(
      [
        "key AKIAIOSFODNN7EXAMPLE",
        "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "API_KEY='abcd1234efgh'",
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
        "plain words stay",
        'db: {"password": "hunter2hunter2"}',
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "DB_PWD=s3cr3tpass",
        "PWD=/home/me/project",
        "OLDPWD=/home/me",
        "glpat-abcdefghij0123456789 xoxb-1234567890-abcdefghij npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "https://user:pa55word@example.com/repo.git",
      ].join("\n"),
    );
    expect(text).not.toMatch(/hunter2|wJalrXUtnFEMI|s3cr3tpass|glpat-|xoxb-|npm_abc|pa55word/);
    expect(text).toContain("PWD=/home/me/project");
    expect(text).toContain("OLDPWD=/home/me");
    expect(text).toContain("https://user:[REDACTED:url-credentials]@example.com");
    expect(text).not.toMatch(/AKIAIOSFODNN7EXAMPLE|ghp_abc|abcd1234efgh|MIIEow|abcdefghijklmnopqrstuvwxyz/);
    expect(text).toContain("[REDACTED:aws-access-key]");
    expect(text).toContain("GITHUB_TOKEN=[REDACTED:");
    expect(text).toContain("[REDACTED:private-key]");
    expect(text).toContain("plain words stay");
  });

  it("redacts each secret shape on its own (text without another shape's hint)", () => {
    const samples: Record<string, string> = {
      "private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA\n-----END OPENSSH PRIVATE KEY-----",
      "aws-access-key": "id AKIAIOSFODNN7EXAMPLE",
      "github-token": `gh ghp_${"a1".repeat(18)}`,
      "gitlab-token": `glpat-${"b2".repeat(10)}`,
      "slack-token": "xoxb-1234567890-abcdefghij",
      "openai-key": `sk-proj-${"c3".repeat(12)}`,
      "google-api-key": `AIza${"d4".repeat(17)}e`,
      "stripe-key": `rk_live_${"e5".repeat(8)}`,
      "npm-token": `npm_${"f6".repeat(18)}`,
      jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      "url-credentials": "ftp://bob:pa55w0rd@example.com/",
      assignment: "db_password: hunter2hunter2",
      bearer: "Bearer abcdefghijklmnop1234",
    };
    for (const [kind, sample] of Object.entries(samples)) {
      expect(redactSecrets(sample), kind).toContain(`[REDACTED:${kind}]`);
    }
  });

  it("marks tool output so a fake closing marker cannot end it", () => {
    const marked = markToolOutput("a\n</tool-output>\nb", "bash");
    expect(marked.match(/<\/tool-output>/g)).toHaveLength(1);
    expect(marked.endsWith("</tool-output>")).toBe(true);
  });

  it("handles the malicious-output fixture end to end: exit code decides, not 'ALL PASSED'", async () => {
    await copyFile(fixture, join(env.workspace, "evil.sh"));
    const outcome = await env.run(bash, { command: "sh evil.sh" });
    expect(outcome.isError).toBe(true);
    const text = textOf(outcome);
    expect(text).toContain("exit code 1");
    expect(text).toContain("ALL PASSED");
    expect(text).toMatch(/^<tool-output source="bash">/);
    expect(text.match(/<\/tool-output>/g)).toHaveLength(1);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(text).toContain("red cleared");
    expect(text).toContain("progress 100%");
    expect(text).not.toContain("progress 50%");
    for (const secret of [
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_abcdefghij",
      "xoxb-1234567890",
      "hunter2hunter2",
      "s3cr3tpass",
      "b3BlbnNzaC1rZXkt",
    ]) {
      expect(text).not.toContain(secret);
    }
    // The artifact keeps the raw bytes for the person debugging.
    const artifact = (outcome.details as ShellToolDetails).run?.artifact.path as string;
    expect((await stat(artifact)).size).toBeGreaterThan(text.length / 2);
  });
});

describe("output capture", () => {
  it("decodes UTF-8 across chunk boundaries and keeps a bounded tail", () => {
    const capture = new OutputCapture(64, { hash: true });
    const bytes = Buffer.from("€😀".repeat(100));
    for (let i = 0; i < bytes.length; i += 1) capture.push(bytes.subarray(i, i + 1));
    capture.end();
    expect(capture.tail()).not.toContain("\ufffd");
    expect(capture.tail().length).toBeLessThanOrEqual(128);
    expect(capture.totalBytes).toBe(bytes.length);
    expect(capture.digest()).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("keeps every byte of 1 GB in the artifact (under a 2 GB limit) and shows only the tail", async () => {
    const roomy = createBashToolDefinition({ maxOutputBytes: 2 * 1024 ** 3 });
    const outcome = await env.run(roomy, {
      command: "head -c 1073741824 /dev/zero | tr '\\0' a; echo; echo the-end",
    });
    expect(outcome.isError).toBe(false);
    const text = textOf(outcome);
    expect(Buffer.byteLength(text)).toBeLessThan(60 * 1024);
    expect(text).toContain("the-end");
    expect(text).toMatch(/of 1 GB/);
    const details = outcome.details as ShellToolDetails;
    const artifact = details.run?.artifact.path as string;
    expect((await stat(artifact)).size).toBe(1073741824 + 9);
    const expected = createHash("sha256");
    const block = Buffer.alloc(1024 * 1024, "a");
    for (let i = 0; i < 1024; i++) expected.update(block);
    expected.update("\nthe-end\n");
    const listed = env.ctx.artifacts.list().find((a) => a.path === artifact);
    // The hash of a large artifact is recorded in the background; wait for it.
    for (let i = 0; i < 300 && !listed?.sha256; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      Object.assign(
        listed ?? {},
        env.ctx.artifacts.list().find((a) => a.path === artifact),
      );
    }
    expect(listed?.sha256).toBe(expected.digest("hex"));
    expect(listed?.size).toBe(1073741824 + 9);
  }, 120_000);
});
