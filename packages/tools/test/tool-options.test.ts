import { createLocalOperations } from "@tackle/operations-local";
import { describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createToolDefinition, createTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import { quoteValue } from "../src/tool-options.js";

describe("tool options are checked when the tool is made", () => {
  it("refuses a negative or fractional count, quoting the value and its type", () => {
    expect(() => createToolDefinition("bash", { maxLines: -5 })).toThrow(
      new RangeError("bash tool: option maxLines must be a positive integer; got -5 (number)."),
    );
    expect(() => createToolDefinition("read", { maxBytes: 1.5 })).toThrow(
      "read tool: option maxBytes must be a positive integer; got 1.5 (number).",
    );
    expect(() => createToolDefinition("grep", { defaultLimit: 0 })).toThrow(RangeError);
    expect(() => createToolDefinition("find", { maxLines: Number.NaN })).toThrow("got NaN (number)");
    expect(() => createToolDefinition("edit", { maxLines: -1 })).toThrow("edit tool: option maxLines");
  });

  it("refuses a value of the wrong type as a TypeError", () => {
    expect(() => createToolDefinition("grep", { maxLines: "10" as never })).toThrow(
      new TypeError('grep tool: option maxLines must be a positive integer; got "10" (string).'),
    );
    expect(() => createToolDefinition("bash", { fastPath: "yes" as never })).toThrow(
      'bash tool: option fastPath must be true or false; got "yes" (string).',
    );
    expect(() => createToolDefinition("bash", { policy: null as never })).toThrow("got null");
    expect(() => createToolDefinition("jobs", { jobs: [] as never })).toThrow("got [] (array)");
  });

  it("refuses an option name it does not know, listing the ones it does", () => {
    expect(() => createToolDefinition("bash", { maxline: 10 } as never)).toThrow(
      /bash tool: unknown option maxline\. Options: .*maxLines/,
    );
    expect(() => createToolDefinition("ls", { limit: 3 } as never)).toThrow("ls tool: unknown option limit");
    expect(() => createToolDefinition("write", { mode: 1 } as never)).toThrow(
      "write tool: unknown option mode",
    );
  });

  it("refuses timeouts and page sizes that contradict their maximum", () => {
    expect(() => createToolDefinition("bash", { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 60 })).toThrow(
      "bash tool: defaultTimeoutSeconds (300) is above maxTimeoutSeconds (60)",
    );
    expect(() => createToolDefinition("grep", { defaultLimit: 50, maxLines: 10 })).toThrow(
      "grep tool: option defaultLimit (50) is above maxLines (10)",
    );
    // A lower maximum alone brings the default down with it.
    expect(createToolDefinition("bash", { maxTimeoutSeconds: 5 }).description).toContain("default 5, max 5");
  });

  it("accepts undefined as absent and every documented option", () => {
    expect(() =>
      createToolDefinition("bash", {
        maxLines: undefined,
        killGraceMs: 0,
        promptSilenceMs: 600,
        pollIntervalMs: 100,
        fastPath: false,
        reapLeftovers: true,
        env: { filter: false },
        policy: { disabled: true },
      }),
    ).not.toThrow();
  });

  it("refuses per-tool options under a name that is no tool", () => {
    const context = createLocalToolContext({ cwd: "/tmp" });
    expect(() =>
      createTools({ context, names: ["read"], tools: { raed: { maxLines: 5 } } as never }),
    ).toThrow("createTools: tools: unknown option raed");
    void context.dispose();
  });

  it("quotes values with their type", () => {
    expect(quoteValue(-5)).toBe("-5 (number)");
    expect(quoteValue("src")).toBe('"src" (string)');
    expect(quoteValue({ a: 1 })).toBe('{"a":1} (object)');
    expect(quoteValue(undefined)).toBe("undefined");
  });
});

describe("context paths", () => {
  const operations = createLocalOperations();

  it("refuses a relative cwd or root (every path would be outside the workspace)", () => {
    expect(() => createToolContext({ cwd: "src", operations })).toThrow(
      new TypeError(
        'createToolContext: cwd must be an absolute path in the environment\'s syntax (posix, e.g. /work/app); got "src" (string).',
      ),
    );
    expect(() => createToolContext({ cwd: "/tmp", roots: ["/tmp", "lib"], operations })).toThrow(
      'createToolContext: roots must be an absolute path in the environment\'s syntax (posix, e.g. /work/app); got "lib" (string).',
    );
    expect(() => createToolContext({ cwd: undefined as never, operations })).toThrow(
      "createToolContext: cwd must be an absolute path; got undefined.",
    );
  });

  it("takes a relative cwd of a local context from this process's directory", async () => {
    const context = createLocalToolContext({ cwd: "." });
    expect(context.cwd).toBe(process.cwd());
    await context.dispose();
  });
});
