/**
 * apply_patch and redaction placeholders: a `[REDACTED:<kind>]` copied from read output into a
 * hunk's kept or removed lines stands for the hidden value at that place and is written back
 * where the hunk repeats it, as in edit; a placeholder that stands for no unique value is refused
 * naming the hunk. No result, error or diff shows a secret. Real files in a temp dir.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { contextForCall, type ToolSession, wrapToolDefinition } from "@tackle/extensions";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { applyPatch } from "../src/patch/apply.js";
import { formatPatchSummary } from "../src/patch/summary.js";
import { createApplyPatchToolDefinition } from "../src/patch/tool.js";
import { createReadToolDefinition } from "../src/tools/read.js";

const AWS = "AKIAIOSFODNN7EXAMPLE";
const GITHUB = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
const API = "s3cr3t-api-value-42";
const ENV = `# settings\nREGION=eu-west-1\nAWS_ACCESS_KEY_ID=${AWS}\nGH=${GITHUB}\nAPI_KEY=${API}\nDEBUG=1\n`;
const SECRETS = [AWS, GITHUB, API];

let dir: string;
let ctx: ToolSession;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-patch-placeholders-")));
  await writeFile(join(dir, ".env"), ENV);
  ctx = createLocalToolContext({ cwd: dir });
  // The model read the file: it saw the placeholders, never the values.
  const read = textOf(await invokeTool(tools.read(), { path: ".env" }));
  expect(read).toContain("5\tAPI_KEY=[REDACTED:assignment]");
  for (const secret of SECRETS) expect(read).not.toContain(secret);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const tools = {
  read: () => wrapToolDefinition(createReadToolDefinition(), () => ctx),
  patch: () => wrapToolDefinition(createApplyPatchToolDefinition(), () => ctx),
};

function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * No secret in what the model reads, nor in an error's details. (A success's `details.diff` is the
 * file's own text for the host, as edit's is.)
 */
function expectNoSecret(outcome: ToolOutcome): void {
  for (const secret of SECRETS) {
    expect(textOf(outcome)).not.toContain(secret);
    if (outcome.isError) expect(JSON.stringify(outcome.details ?? {})).not.toContain(secret);
  }
}

const patch = (...lines: string[]) =>
  ["*** Begin Patch", "*** Update File: .env", ...lines, "*** End Patch"].join("\n");
const env = () => readFile(join(dir, ".env"), "utf8");

describe("apply_patch with redaction placeholders", () => {
  it("keeps a secret on a kept line and on a removed-then-added line, and never shows it", async () => {
    const out = await invokeTool(tools.patch(), {
      input: patch(
        "@@",
        " GH=[REDACTED:github-token]",
        "-API_KEY=[REDACTED:assignment]",
        "+# rotated monthly",
        "+API_KEY=[REDACTED:assignment]",
        "-DEBUG=1",
        "+DEBUG=2",
      ),
    });
    expect(textOf(out)).toContain("Applied the patch: 1 file changed.");
    expect(out.isError).toBe(false);
    expect(await env()).toBe(
      ENV.replace(`API_KEY=${API}\nDEBUG=1`, `# rotated monthly\nAPI_KEY=${API}\nDEBUG=2`),
    );
    expectNoSecret(out);
  });

  it("shows a dry run's diff with the secrets hidden", async () => {
    const call = contextForCall(ctx, { toolCallId: "dry", toolName: "apply_patch", signal: undefined });
    const details = await applyPatch(
      call,
      patch("@@", " API_KEY=[REDACTED:assignment]", "-DEBUG=1", "+DEBUG=3"),
      {
        toolCallId: "dry",
        dryRun: true,
      },
    );
    expect(details.files[0]?.diff).toContain(API);
    const text = formatPatchSummary(details, { maxLines: 100, maxBytes: 10_000 });
    expect(text).toContain(" API_KEY=[REDACTED:assignment]");
    expect(text).toContain("+DEBUG=3");
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(await env()).toBe(ENV);
  });

  it("refuses a placeholder whose surroundings are not the file's, naming the hunk, changing nothing", async () => {
    const out = await invokeTool(tools.patch(), {
      input: patch("@@", "-API_KEY = [REDACTED:assignment]", "+API_KEY=rotated"),
    });
    expect(out).toMatchObject({ isError: true, errorCode: "redacted_text" });
    expect(textOf(out)).toContain("hunk 1 (patch line 3) of .env contains [REDACTED:assignment]");
    expect(textOf(out)).toContain("Nothing was changed.");
    expect(await env()).toBe(ENV);
    expectNoSecret(out);
  });

  it("refuses a placeholder in a '+' line that no removed or kept line stands for", async () => {
    const out = await invokeTool(tools.patch(), {
      input: patch("@@", " DEBUG=1", "+TOKEN=[REDACTED:assignment]"),
    });
    expect(out).toMatchObject({ isError: true, errorCode: "redacted_text" });
    expect(textOf(out)).toContain("adds [REDACTED:assignment], which stands for no placeholder");
    expect(await env()).toBe(ENV);
  });

  it("a hunk that does not apply after its placeholders were expanded does not show the secret", async () => {
    const out = await invokeTool(tools.patch(), {
      input: patch(
        "@@",
        " API_KEY=[REDACTED:assignment]",
        " DEBUG=1",
        "@@",
        " GH=[REDACTED:github-token]",
        "-NOT_THERE=1",
        "+X=1",
      ),
    });
    expect(out.isError).toBe(true);
    expectNoSecret(out);
    expect(await env()).toBe(ENV);
  });
});
