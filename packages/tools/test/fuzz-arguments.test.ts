/**
 * Seeded fuzz of every tool with malformed and oversized arguments, through `invokeTool` on a
 * real workspace: a few hundred calls, small enough for CI. Each call must resolve (never
 * reject), answer every error with a typed code (a core code or one the tool declares;
 * `execution_failed` only where a command's own exit code says so) and a text that names the next step (`namesNextStep`; a command's own
 * failure is exempt: its output says what went wrong), keep its text under a fixed size and
 * well-formed, and keep its whole outcome small. (How long a hostile call blocks the event loop
 * is measured by the bounds benchmark, not asserted here.)
 *
 * Reproduce a run: FUZZ_SEED=<seed> FUZZ_CALLS=<n> pnpm --filter @tackle/tools exec vitest run test/fuzz-arguments.test.ts
 * FUZZ_REPORT=<file> writes the count of each tool:code and one sample text per code there.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import {
  type AgentTool,
  CORE_ERROR_CODES,
  ERROR_TEXT_MAX_CHARS,
  invokeTool,
  type ToolOutcome,
} from "@tackle/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import { DEFAULTS } from "../src/defaults.js";
import { createAllTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import { namesNextStep } from "./support/next-step.js";
import { prng } from "./support/prng.js";

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed19);
const CALLS = Number(process.env.FUZZ_CALLS ?? 300);

/** Every code an error of `tool` may carry: the core's and those the tool declares. */
function typedCodes(tool: AgentTool | undefined): Set<string> {
  return new Set([...Object.keys(CORE_ERROR_CODES), ...Object.keys(tool?.errorCodes ?? {})]);
}

/** Tools whose `execution_failed` may be a command's own failure (its exit code), not an exception. */
const COMMAND_TOOLS = new Set(["bash", "powershell"]);

/** A command ran and failed by itself (exit code, signal): its details say so. */
function isCommandFailure(name: string, outcome: ToolOutcome): boolean {
  if (!COMMAND_TOOLS.has(name) || outcome.errorCode !== "execution_failed") return false;
  const details = outcome.details as { run?: { status?: string }; job?: { status?: string } } | undefined;
  return (
    details?.run?.status === "failed" || (details?.job !== undefined && details.job.status !== "running")
  );
}

/** Text a result may show: the output budget plus notices, or the error budget. */
const TEXT_BOUND = Math.max(ERROR_TEXT_MAX_CHARS, DEFAULTS.maxBytes + 4096) + 1024;
/** A whole outcome as JSON (content and details): nothing an input can blow up. */
const OUTCOME_JSON_BOUND = 512 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class Shapes {
  readonly random: () => number;
  constructor(seed: number) {
    this.random = prng(seed);
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }

  /** Strings a model or a program might send: paths, junk, huge, broken Unicode, JSON text. */
  string(): string {
    return this.pick([
      () => "",
      () => " ",
      () => "small.txt",
      () => "src/a.ts",
      () => "src",
      () => "missing/nope.txt",
      () => "../outside.txt",
      () => "/etc/passwd",
      () => "~/x",
      () => "@src/a.ts",
      () => "file:///tmp/x",
      () => "a\u0000b",
      () => "\uD800lone",
      () => "tail\uDFFF",
      () => "é".repeat(3000),
      () => "x".repeat(1 + Math.floor(this.random() * 2_000_000)),
      () => "line\n".repeat(20_000),
      () => "needle",
      () => "(unclosed",
      () => "[",
      () => "*",
      () => "**/*.ts",
      () => "-e",
      () => "--help",
      () => "true",
      () => "42",
      () => "-5",
      () => "2.5",
      () => '{"path": "small.txt"}',
      () => '[{"oldText": "a", "newText": "b"}]',
      () => '{"__proto__": {"path": "small.txt", "content": "pwned"}}',
      () => "null",
      () => "\u202Fspace\u00A0name",
      () => "\u001b[31mred\u001b[0m",
    ])();
  }

  /** Numbers, including the ones JSON can hold that no field wants. */
  number(): unknown {
    return this.pick([
      0,
      -1,
      1,
      2,
      7,
      2.5,
      -0.5,
      1e9,
      1e15,
      2 ** 53,
      -(2 ** 31),
      1e308,
      "5",
      "1e3",
      " 10 ",
      "x",
    ]);
  }

  /** Any JSON-like value, nested up to `depth`. */
  any(depth = 0): unknown {
    const kind = this.pick(["string", "number", "boolean", "null", "array", "object", "big", "deep"]);
    if (depth > 3 && (kind === "array" || kind === "object" || kind === "deep" || kind === "big"))
      return null;
    switch (kind) {
      case "string":
        return this.string();
      case "number":
        return this.number();
      case "boolean":
        return this.pick([true, false, "true", "yes", 1]);
      case "null":
        return null;
      case "array":
        return Array.from({ length: Math.floor(this.random() * 4) }, () => this.any(depth + 1));
      case "object":
        return this.object(depth + 1);
      case "big":
        // Many values where a few belong: the shape that made validation quadratic.
        return Array.from({ length: 1000 + Math.floor(this.random() * 60_000) }, (_, i) => i);
      default: {
        let deep: unknown = "bottom";
        for (let i = 0; i < 200; i++) deep = this.chance(0.5) ? [deep] : { d: deep };
        return deep;
      }
    }
  }

  object(depth = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = Math.floor(this.random() * 4);
    for (let i = 0; i < keys; i++) {
      out[this.pick(["a", "path", "edits", "oldText", "newText", "x".repeat(500), "\uD800", "constructor"])] =
        this.any(depth + 1);
    }
    return out;
  }

  /** A value for a field of `schema`: mostly of the right type (hostile content), sometimes not. */
  forSchema(schema: TSchema, depth = 0): unknown {
    if (this.chance(0.25) || depth > 3) return this.any(depth);
    if (Array.isArray(schema.anyOf)) return this.forSchema(this.pick(schema.anyOf as TSchema[]), depth);
    if (schema.const !== undefined) return this.chance(0.8) ? schema.const : this.string();
    switch (schema.type) {
      case "string":
        return this.string();
      case "integer":
      case "number":
        return this.number();
      case "boolean":
        return this.pick([true, false, "true", "false", 0]);
      case "array": {
        const items = schema.items as TSchema | undefined;
        const length = this.pick([0, 1, 2, 3, 50]);
        return Array.from({ length }, () => (items ? this.forSchema(items, depth + 1) : this.any(depth + 1)));
      }
      case "object":
        return this.forObject(schema, depth + 1);
      default:
        return this.any(depth);
    }
  }

  forObject(schema: TSchema, depth = 0): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    for (const [name, field] of Object.entries(properties)) {
      if (this.chance(0.7)) out[name] = this.forSchema(field, depth);
    }
    if (this.chance(0.2)) Object.assign(out, this.object(depth));
    return out;
  }

  /** The whole arguments of one call: usually an object for the schema, sometimes anything. */
  argumentsFor(tool: AgentTool): unknown {
    const roll = this.random();
    if (roll < 0.1) return this.any();
    if (roll < 0.15) return JSON.stringify(this.forObject(tool.parameters));
    if (roll < 0.2) return JSON.parse(`{"__proto__": ${JSON.stringify(this.forObject(tool.parameters))}}`);
    return this.forObject(tool.parameters);
  }
}

/** Commands the fuzz may run: harmless whatever else the arguments say. */
const SAFE_COMMANDS = ["true", "false", "echo fuzz", "exit 3", "printf '\\x80\\xff'", "x".repeat(70_000), ""];

function sanitizeShell(name: string, args: unknown, shapes: Shapes): unknown {
  // A random string is a random program: keep the command's text from a safe list, but let the
  // rest of the shape (timeout, cwd, background, wrong types) be as hostile as the others.
  if (name !== "bash" && name !== "powershell") return args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const record = args as Record<string, unknown>;
  if (typeof record.command === "string") record.command = shapes.pick(SAFE_COMMANDS);
  if (record.background === true || record.background === "true") record.command = "true";
  if (typeof record.timeout !== "string" && typeof record.timeout !== "number") delete record.timeout;
  else record.timeout = shapes.pick([0.5, 1, 2, -1, 0, "3", "x"]);
  return args;
}

let workspace: string;
let context: ToolContext;
let tools: Record<string, AgentTool>;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "tackle-fuzz-")));
  await mkdir(join(workspace, "src"));
  await writeFile(join(workspace, "small.txt"), "one\ntwo\nneedle three\n");
  await writeFile(join(workspace, "src", "a.ts"), "export const a = 1;\r\n// needle\r\n");
  await writeFile(join(workspace, "bin.dat"), Buffer.from([0, 1, 2, 255, 0x6e, 0x65]));
  context = createLocalToolContext({ cwd: workspace });
  tools = createAllTools({ context }) as unknown as Record<string, AgentTool>;
});

afterAll(async () => {
  await context?.dispose();
  await rm(workspace, { recursive: true, force: true });
});

function check(name: string, args: unknown, outcome: ToolOutcome): string[] {
  const problems: string[] = [];
  const texts = outcome.content.map((part) => (part.type === "text" ? part.text : ""));
  if (outcome.isError) {
    const text = texts.join("\n");
    if (!typedCodes(tools[name]).has(outcome.errorCode ?? ""))
      problems.push(`untyped code ${outcome.errorCode}`);
    if (outcome.errorCode === "execution_failed" && !isCommandFailure(name, outcome))
      problems.push(`execution_failed (an internal exception): ${text.slice(0, 300)}`);
    else if (!isCommandFailure(name, outcome) && !namesNextStep(text))
      problems.push(`${outcome.errorCode} without a next step: ${shapeOf(text)}`);
  }
  for (const text of texts) {
    if (text.length > TEXT_BOUND) problems.push(`text of ${text.length} chars`);
    if (LONE_SURROGATE.test(text)) problems.push("text with a lone surrogate");
  }
  const json = JSON.stringify(outcome);
  if (json.length > OUTCOME_JSON_BOUND) problems.push(`outcome of ${json.length} chars as JSON`);
  return problems.map((problem) => `${name} ${describeArgs(args)}: ${problem}`);
}

function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** A refusal's text with its quoted inputs and numbers blanked: one entry per kind of message. */
function shapeOf(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d[\d,.]*/g, "N")
    .slice(0, 300);
}

function describeArgs(args: unknown): string {
  try {
    const text = JSON.stringify(args) ?? String(args);
    return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
  } catch {
    return "(unprintable)";
  }
}

describe(`fuzz: ${CALLS} seeded calls with malformed and oversized arguments (seed ${SEED})`, () => {
  it("the next-step rule refuses a text that only states the problem", () => {
    // Texts the tools gave before they named a next step: the rule must catch each.
    expect(namesNextStep("timeout must be a positive number of seconds (max 600); got -1.")).toBe(false);
    expect(
      namesNextStep(
        'Invalid regular expression "(": regex parse error. To search for the text exactly as written, call grep again with literal=true.',
      ),
    ).toBe(false);
    expect(namesNextStep("File not found: a.txt. edit changes existing files.")).toBe(false);
    expect(namesNextStep("timeout must be positive; got -1. Send timeout as seconds above 0.")).toBe(true);
    expect(namesNextStep("File not found: a.txt. Did you mean b.txt?")).toBe(true);
    expect(namesNextStep("Nothing was run; pass a directory as cwd.")).toBe(true);
  });

  it("every call resolves with a typed, bounded, well-formed outcome", async () => {
    const shapes = new Shapes(SEED);
    const names = Object.keys(tools).sort();
    const failures: string[] = [];
    const codes = new Map<string, number>();
    const samples = new Map<string, string>();
    const refusals = new Set<string>();
    for (let i = 0; i < CALLS; i++) {
      const name = names[i % names.length] as string;
      const tool = tools[name] as AgentTool;
      const args = sanitizeShell(name, shapes.argumentsFor(tool), shapes);
      let outcome: ToolOutcome;
      try {
        outcome = await invokeTool(tool, args);
      } catch (error) {
        failures.push(`${name} ${describeArgs(args)}: rejected (${String(error)})`);
        continue;
      }
      failures.push(...check(name, args, outcome));
      const key = `${name}:${outcome.isError ? outcome.errorCode : "ok"}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
      if (outcome.isError && !samples.has(key)) samples.set(key, textOf(outcome).slice(0, 400));
      if (outcome.errorCode === "invalid_arguments") refusals.add(shapeOf(textOf(outcome)));
    }
    if (process.env.FUZZ_REPORT) {
      const counts = Object.fromEntries([...codes].sort());
      const texts = Object.fromEntries([...samples].sort());
      await writeFile(
        process.env.FUZZ_REPORT,
        JSON.stringify({ seed: SEED, calls: CALLS, counts, texts, refusals: [...refusals].sort() }, null, 2),
      );
    }
    expect(failures).toEqual([]);
    // The fuzz must reach both sides: answers and refusals, for every tool.
    for (const name of names) expect([...codes.keys()].some((key) => key.startsWith(`${name}:`))).toBe(true);
    expect([...codes.keys()].some((key) => key.endsWith(":invalid_arguments"))).toBe(true);
    expect([...codes.keys()].some((key) => key.endsWith(":ok"))).toBe(true);
  }, 600_000);
});
