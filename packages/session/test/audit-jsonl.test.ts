/** The JSONL audit sink and its reader, on real files in a temp directory. */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  AUDIT_EVENT_SCHEMAS,
  type AuditEvent,
  AuditEventBaseSchema,
  type AuditIntent,
  createAuditRecorder,
} from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AUDIT_WRITE_DELAY_MS,
  auditEventJson,
  createJsonlAuditSink,
  parseAuditLines,
  readAuditFile,
} from "../src/audit/index.js";

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
  it("writes pending events together within the delay, one line each, in a private file", async () => {
    const path = join(dir, "new", "audit.jsonl");
    const sink = createJsonlAuditSink(path);
    sink.append(intent("a", "{}"));
    sink.append(intent("b", "{}"));
    expect(readFileSync(path, "utf8")).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(path, "utf8")).toBe("");
    await vi.waitFor(() => expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2), {
      timeout: AUDIT_WRITE_DELAY_MS * 50,
    });
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

describe("events of a wrong shape", () => {
  /** One well-formed event of every kind, with every optional field the readers print. */
  const valid: AuditEvent[] = [
    { ...(intent("k", '{"command":"ls"}') as AuditIntent), turnId: "turn-1" },
    {
      v: 1,
      kind: "decision",
      callId: "k",
      at: "2026-12-07T00:00:00.000Z",
      source: "shell",
      gate: "shell-policy",
      verdict: "ask",
      rules: ["recursive-delete"],
      reason: "r",
      approvedBy: "user",
      approved: true,
      changed: ["a"],
      path: { input: "a", access: "write", real: "/w/a", root: "/w", inside: true },
      code: "policy_denied",
      data: { n: 1 },
      environment: {
        id: "ssh",
        kind: "ssh",
        host: "h",
        port: 22,
        user: "u",
        container: "c",
        engine: "e",
        sandbox: "bubblewrap",
      },
    },
    {
      v: 1,
      kind: "spawn",
      callId: "k",
      at: "2026-12-07T00:00:00.000Z",
      source: "shell",
      shell: "bash",
      cwd: "/w",
      command: "ls",
      commandChars: 2,
      timeoutMs: 1000,
      background: false,
      env: { set: ["A"], removedPattern: "x" },
      runId: "r",
      jobId: "j",
      pid: 3,
      outputPath: "/o",
      sandbox: {
        mechanism: "bubblewrap",
        network: "allow-list",
        allow: ["example.com:443"],
        writable: ["/w"],
        seccomp: true,
        hostPid: 4,
      },
    },
    {
      v: 1,
      kind: "output",
      callId: "k",
      at: "2026-12-07T00:00:00.000Z",
      source: "shell",
      timing: "exact",
      chunks: 1,
      firstOutputAt: "2026-12-07T00:00:00.000Z",
      lastOutputAt: "2026-12-07T00:00:00.000Z",
      resolutionMs: 250,
      stdoutBytes: 1,
      stderrBytes: 0,
      streamsMerged: false,
      totalBytes: 1,
      shown: { lines: 1, bytes: 1, cut: false, cutBy: "lines", totalLines: 1 },
      artifact: { id: "i", path: "/o", size: 1, sha256: "s" },
      redactions: { aws: 1 },
      result: { blocks: 1, textBytes: 1, images: 0 },
    },
    {
      v: 1,
      kind: "end",
      callId: "k",
      at: "2026-12-07T00:00:00.000Z",
      source: "shell",
      scope: "process",
      status: "timed-out",
      exitCode: 1,
      signal: "SIGTERM",
      durationMs: 5,
      isError: true,
      errorCode: "timeout",
      result: { blocks: 1, textBytes: 1, images: 0 },
      cleanup: {
        timedOut: true,
        termSent: true,
        killSent: false,
        confirmed: true,
        escapesChecked: true,
        remainingPids: [],
        pid: 9,
        note: "n",
      },
      howToCheck: "ps",
      sandboxBlocked: ["network example.com:443"],
    },
    {
      v: 1,
      kind: "side-effect",
      callId: "k",
      at: "2026-12-07T00:00:00.000Z",
      source: "shell",
      method: "snapshot",
      files: [
        { path: "a", change: "changed", bytesBefore: 1, bytesAfter: 2, sha256Before: "x", sha256After: "y" },
      ],
      bounds: {
        root: "/w",
        maxEntries: 1,
        timeBudgetMs: 1,
        entries: 1,
        complete: true,
        maxHashBytes: 1,
        unhashed: 0,
      },
      blindSpots: "b",
      note: "n",
    },
    {
      v: 1,
      kind: "diagnostics",
      callId: "k",
      sessionId: "s",
      at: "2026-12-07T00:00:00.000Z",
      source: "file",
      path: "a.ts",
      codes: ["syntax_broken"],
      syntax: { status: "broken", language: "typescript", problems: [{ line: 1, column: 2, message: "m" }] },
      server: {
        status: "ok",
        provider: "typescript",
        elapsedMs: 3,
        errors: 1,
        warnings: 0,
        items: [{ path: "a.ts", line: 1, column: 2, severity: "error", message: "m", code: "TS1" }],
        reason: "r",
      },
    },
  ];
  /** Values of a type no field of an event has all at once. */
  const wrongValues: unknown[] = [42, "text", true, null, [1], { a: 1 }];

  it("accepts every kind with all its fields", () => {
    const parsed = parseAuditLines(valid.map((e) => `${JSON.stringify(e)}\n`).join(""));
    expect(parsed.skippedLines).toEqual([]);
    expect(parsed.events).toHaveLength(valid.length);
  });

  interface SchemaNode {
    type?: string;
    properties?: Record<string, SchemaNode>;
    items?: SchemaNode;
  }
  const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
  /** Every path to a field the schema names, `files[]` for the items of an array of objects. */
  const schemaPaths = (schema: SchemaNode, at = ""): string[] =>
    Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
      const path = at ? `${at}.${name}` : name;
      if (field.type === "object" && field.properties) return [path, ...schemaPaths(field, path)];
      if (field.type === "array" && field.items?.type === "object")
        return [path, ...schemaPaths(field.items, `${path}[]`)];
      return [path];
    });
  /** Every path to a value in `value`, the same way. */
  const valuePaths = (value: Record<string, unknown>, at = ""): string[] =>
    Object.entries(value).flatMap(([name, field]) => {
      const path = at ? `${at}.${name}` : name;
      if (Array.isArray(field) && isObject(field[0]))
        return [path, ...field.flatMap((item) => valuePaths(item as Record<string, unknown>, `${path}[]`))];
      if (isObject(field) && !["data", "redactions"].includes(name))
        return [path, ...valuePaths(field as Record<string, unknown>, path)];
      return [path];
    });

  it("the samples hold every field the event schemas name, so the checks below cover them all", () => {
    for (const [kind, schema] of Object.entries(AUDIT_EVENT_SCHEMAS)) {
      const sample = valid.find((event) => event.kind === kind);
      expect(sample, kind).toBeDefined();
      const present = new Set(valuePaths(sample as unknown as Record<string, unknown>));
      const missing = schemaPaths(schema as SchemaNode).filter((path) => !present.has(path));
      // Fields every event has are checked once, against all the samples together.
      expect(
        missing.filter((path) => !(path in AuditEventBaseSchema.properties)),
        kind,
      ).toEqual([]);
    }
    const anywhere = new Set(valid.flatMap((event) => Object.keys(event)));
    expect(Object.keys(AuditEventBaseSchema.properties).filter((name) => !anywhere.has(name))).toEqual([]);
  });

  it("skips and reports a nested field of another type, naming it by its path", () => {
    let cases = 0;
    for (const event of valid) {
      for (const path of valuePaths(event as unknown as Record<string, unknown>)) {
        if (!path.includes(".") && !path.includes("[]")) continue;
        const broken = structuredClone(event) as unknown as Record<string, unknown>;
        const parts = path.replace(/\[\]/g, ".0").split(".");
        let parent = broken;
        for (const part of parts.slice(0, -1)) parent = parent[part] as Record<string, unknown>;
        const last = parts[parts.length - 1] as string;
        parent[last] = typeof parent[last] === "number" ? "1" : 1;
        const parsed = parseAuditLines(`${JSON.stringify(broken)}\n`);
        expect(parsed.events, path).toEqual([]);
        expect(parsed.invalidEvents[0]?.problem, path).toContain(path.replace(/\[\]/g, "[0]"));
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(60);
  });

  it("skips and reports an event with any field of another type, naming the field", () => {
    let cases = 0;
    for (const event of valid) {
      for (const field of Object.keys(event)) {
        for (const wrong of wrongValues) {
          const broken = { ...event, [field]: wrong } as Record<string, unknown>;
          const original = (event as unknown as Record<string, unknown>)[field];
          // The same JSON type as the right value (a string for a string field) may be valid.
          if (typeof wrong === typeof original && Array.isArray(wrong) === Array.isArray(original)) continue;
          if (field === "v" || field === "kind") continue;
          const parsed = parseAuditLines(`${JSON.stringify(broken)}\n`);
          expect(parsed.events, `${event.kind}.${field} = ${JSON.stringify(wrong)}`).toEqual([]);
          expect(parsed.invalidEvents[0]?.problem).toContain(field);
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(200);
  });

  it("reports a missing required field, an unknown kind and a bad nested item; other versions are foreign, not reported", () => {
    const { args: _args, ...noArgs } = valid[0] as AuditEvent & { args: string };
    const badFile = { ...(valid[5] as object), files: [{ path: "a", change: "renamed" }] };
    const parsed = parseAuditLines(
      [noArgs, { ...valid[0], kind: "note" }, badFile, { ...valid[0], v: 2 }]
        .map((e) => JSON.stringify(e))
        .join("\n"),
    );
    expect(parsed.events).toEqual([]);
    expect(parsed.skippedLines).toEqual([1, 2, 3, 4]);
    expect(parsed.invalidEvents.map((e) => e.problem)).toEqual([
      "args is missing",
      'unknown kind "note"',
      'files[0].change should be one of created, changed, removed, got "renamed"',
    ]);
  });
});

describe("a call's end on disk when the call returns", () => {
  it("writes an end with every event still pending, before append returns", () => {
    const path = join(dir, "audit.jsonl");
    const sink = createJsonlAuditSink(path);
    sink.append(intent("c", "{}"));
    expect(readFileSync(path, "utf8")).toBe("");
    sink.append({
      v: 1,
      kind: "end",
      callId: "c",
      at: "2026-12-07T00:00:00.000Z",
      source: "t",
      scope: "call",
      status: "completed",
      durationMs: 1,
    });
    expect(parseAuditLines(readFileSync(path, "utf8")).events.map((e) => e.kind)).toEqual(["intent", "end"]);
  });

  it("survives a host killed right after invokeTool resolved (the end is written before append returns)", () => {
    const path = join(dir, "audit.jsonl");
    const dist = (pkg: string, file: string) =>
      JSON.stringify(
        pathToFileURL(fileURLToPath(new URL(`../../${pkg}/dist/${file}`, import.meta.url))).href,
      );
    // The host kills itself in the continuation of the awaited call: no later turn runs.
    const script = join(dir, "host.mjs");
    writeFileSync(
      script,
      `import { invokeTool } from ${dist("agent-core", "index.js")};
import { Type } from ${dist("agent-core", "typebox.js")};
import { createJsonlAuditSink } from ${dist("session", "audit/index.js")};
const sink = createJsonlAuditSink(${JSON.stringify(path)});
const tool = { name: "noop", label: "noop", description: "does nothing", parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }) };
for (let i = 0; i < 3; i++) {
  const outcome = await invokeTool(tool, {}, { toolCallId: "call-" + i, audit: { sink, requestedBy: "user" } });
  if (i === 2) { process.stdout.write(outcome.isError ? "error" : "resolved"); process.kill(process.pid, "SIGKILL"); }
}
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
    expect(run.signal).toBe("SIGKILL");
    expect(run.stdout).toBe("resolved");
    const { events } = parseAuditLines(readFileSync(path, "utf8"));
    const ends = events.filter((e) => e.kind === "end" && e.scope === "call").map((e) => e.callId);
    expect(ends).toEqual(["call-0", "call-1", "call-2"]);
  });
});
