/** The JSONL audit sink and its reader, on real files in a temp directory. */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AuditEvent, createAuditRecorder } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditEventJson } from "../src/audit/event-json.js";
import { createJsonlAuditSink, parseAuditLines, readAuditFile } from "../src/audit/jsonl-sink.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tackle-audit-jsonl-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const intent = (callId: string, args: string): AuditEvent => ({
  v: 1,
  kind: "intent",
  callId,
  at: new Date().toISOString(),
  source: "test",
  tool: "bash",
  args,
  requestedBy: "user",
});

describe("createJsonlAuditSink", () => {
  it("writes a turn's events together once the turn ends, one line each, in a private file", async () => {
    const path = join(dir, "new", "audit.jsonl");
    const sink = createJsonlAuditSink(path);
    sink.append(intent("a", "{}"));
    sink.append(intent("b", "{}"));
    expect(readFileSync(path, "utf8")).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
    expect((statSync(path).mode & 0o777).toString(8)).toBe("600");
    expect((statSync(join(dir, "new")).mode & 0o777).toString(8)).toBe("700");
    await sink.close();
  });

  it("writes each event at once with writeEachEvent, and what is pending on flush and close", async () => {
    const path = join(dir, "audit.jsonl");
    const each = createJsonlAuditSink(path, { writeEachEvent: true });
    each.append(intent("a", "{}"));
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(2);
    await each.close();
    const batched = createJsonlAuditSink(path);
    batched.append(intent("b", "{}"));
    await batched.flush();
    batched.append(intent("c", "{}"));
    await batched.close();
    batched.append(intent("d", "{}"));
    expect((await readAuditFile(path)).events.map((e) => e.callId)).toEqual(["a", "b", "c"]);
  });

  it("redacts secrets and control characters in every string, and keeps a private mode on an existing file", async () => {
    const path = join(dir, "audit.jsonl");
    appendFileSync(path, "", { mode: 0o644 });
    const sink = createJsonlAuditSink(path, { writeEachEvent: true });
    const audit = createAuditRecorder(sink, { callId: "s" });
    audit.record({
      kind: "decision",
      source: "test",
      gate: "hook",
      verdict: "deny",
      reason: "saw GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 \u001b[31mred\u001b[0m",
    });
    await sink.close();
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(text).toContain("[REDACTED:");
    expect(text).not.toContain("\\u001b");
    expect((statSync(path).mode & 0o777).toString(8)).toBe("600");
  });
});

describe("auditEventJson", () => {
  const decision = (reason: string, data?: Record<string, unknown>): AuditEvent => ({
    v: 1,
    kind: "decision",
    callId: "c",
    at: "2026-12-01T00:00:00.000Z",
    source: "test",
    gate: "hook",
    verdict: "allow",
    reason,
    ...(data ? { data } : {}),
  });

  it("keeps an event with nothing to clean as its plain JSON", () => {
    const event = decision("allowed: src/app.ts", { files: ["a.txt"] });
    expect(auditEventJson(event)).toBe(JSON.stringify(event));
  });

  it("removes each kind of control character, alone in a string", () => {
    const controls = [
      "\u0000",
      "\u0008",
      "\u000b",
      "\u000c",
      "\u001b[31m",
      "\u007f",
      "\u0085",
      "\u009b31m",
      "\u202e",
      "\u2066",
    ];
    for (const control of controls) {
      const line = auditEventJson(decision(`a${control}b`));
      expect(JSON.parse(line).reason, JSON.stringify(control)).toBe("ab");
    }
    expect(JSON.parse(auditEventJson(decision("tab\tand\nnewline stay"))).reason).toBe(
      "tab\tand\nnewline stay",
    );
  });

  it("writes exactly JSON.stringify's text for plain data: escapes, non-ASCII, skipped and null values", () => {
    const event = decision('quote " backslash \\ tab\t newline\n return\r', {
      text: "naïve – 日本語 😀",
      lone: "a\ud800b",
      skipped: undefined,
      notANumber: Number.NaN,
      list: [1, undefined, null, true, { 'key with "quote"': -0 }],
      empty: {},
    });
    expect(auditEventJson(event)).toBe(JSON.stringify(event));
  });

  it("cleans strings of every depth, also in the fields the recorder fills in and after a clean event", () => {
    const secret = `ghp_${"x".repeat(36)}`;
    const clean = decision("ok");
    expect(auditEventJson(clean)).toBe(JSON.stringify(clean));
    for (const event of [
      { ...clean, callId: secret },
      { ...clean, sessionId: secret },
      { ...clean, at: `a\u001b[0m ${secret}` },
      decision("ok", { list: [["deep", secret]] }),
      decision("ok", { [secret]: `sk-${"y".repeat(24)}` }),
    ]) {
      const line = auditEventJson(event as AuditEvent);
      expect(line).not.toContain("y".repeat(24));
      expect(line).not.toContain("\\u001b");
      expect(line.replace(`"${secret}":`, "")).not.toContain(secret);
    }
    // The recorder's strings are remembered only when clean: the same callId twice, then another.
    const again = { ...clean, callId: secret } as AuditEvent;
    expect(auditEventJson(again)).not.toContain(secret);
    expect(auditEventJson(again)).not.toContain(secret);
  });

  it("takes the cleaning replacer for values that are not plain data", () => {
    const when = new Date("2026-12-01T00:00:00.000Z");
    const event = decision("ok", { when, secret: { toJSON: () => `AKIA${"A".repeat(16)}` } });
    const parsed = JSON.parse(auditEventJson(event));
    expect(parsed.data.when).toBe("2026-12-01T00:00:00.000Z");
    expect(parsed.data.secret).toBe("[REDACTED:aws-access-key]");
  });

  it("redacts a secret in a nested field", () => {
    const line = auditEventJson(decision("ok", { found: { value: `ghp_${"x".repeat(36)}` } }));
    expect(line).not.toContain("ghp_");
    expect(JSON.parse(line).data.found.value).toBe("[REDACTED:github-token]");
  });
});

describe("reading an audit file", () => {
  it("skips a torn last line and reports it; lines that are not events are counted, not fatal", () => {
    const good = JSON.stringify(intent("a", "{}"));
    const parsed = parseAuditLines(`${good}\nnot json\n{"other":1}\n${good}\n{"v":1,"kind":"end","cal`);
    expect(parsed.events).toHaveLength(2);
    expect(parsed.tornLastLine).toBe(true);
    expect(parsed.skippedLines).toEqual([2, 3]);
    expect(parseAuditLines(`${good}\n`).tornLastLine).toBe(false);
  });
});
