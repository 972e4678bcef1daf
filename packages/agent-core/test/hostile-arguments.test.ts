import { Type } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { describe, expect, it } from "vitest";
import { invokeTool } from "../src/invoke-tool.js";
import { ERROR_TEXT_MAX_CHARS } from "../src/quote-input.js";
import type { AgentTool } from "../src/tool.js";
import {
  ARGUMENT_ERRORS_SCANNED,
  ARGUMENT_PROBLEMS_SHOWN,
  summarizeValidationErrors,
} from "../src/validation-message.js";

const writeParams = Type.Object({ path: Type.String(), content: Type.String() });
const editParams = Type.Object({
  path: Type.String(),
  edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() }), { minItems: 1 }),
});

/** A tool that records every call it runs. */
function recordingTool(parameters = writeParams as typeof writeParams | typeof editParams) {
  const calls: unknown[] = [];
  const tool: AgentTool = {
    name: "write",
    label: "Write",
    description: "records",
    parameters,
    async execute(_id, params) {
      calls.push(params);
      return { content: [{ type: "text", text: "ran" }], details: {} };
    },
  };
  return { tool, calls };
}

function textOf(outcome: { content: unknown[] }): string {
  return (outcome.content[0] as { text: string }).text;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("validation stays linear and its message short", () => {
  it("30,000 numbers where edit objects belong: the first problems listed, the rest counted, a short message", async () => {
    const { tool, calls } = recordingTool(editParams);
    const edits = Array.from({ length: 30_000 }, (_, i) => i);
    const outcome = await invokeTool(tool, { path: "a.ts", edits });
    expect(outcome.errorCode).toBe("invalid_arguments");
    const text = textOf(outcome);
    expect(text).toContain("- edits[0]: expected object with oldText, newText, received number 0.");
    expect(text).toContain(`- edits[${ARGUMENT_PROBLEMS_SHOWN - 1}]:`);
    expect(text).not.toContain(`- edits[${ARGUMENT_PROBLEMS_SHOWN}]:`);
    expect(text).toContain(
      `- and at least ${(ARGUMENT_ERRORS_SCANNED - ARGUMENT_PROBLEMS_SHOWN).toLocaleString("en-US")} more problems (not all counted).`,
    );
    expect(text.length).toBeLessThan(3000);
    expect((outcome.details as { problems: unknown[] }).problems).toHaveLength(ARGUMENT_PROBLEMS_SHOWN);
    expect(calls).toHaveLength(0);
  });

  it("counts exactly when every error was read, and says one more in the singular", async () => {
    const { tool } = recordingTool(editParams);
    const many = await invokeTool(tool, { path: "a.ts", edits: Array.from({ length: 25 }, (_, i) => i) });
    expect(textOf(many)).toContain("- and 15 more problems (not listed).");
    const eleven = await invokeTool(tool, { path: "a.ts", edits: Array.from({ length: 11 }, (_, i) => i) });
    expect(textOf(eleven)).toContain("- and 1 more problem (not listed).");
  });

  it("reads at most ARGUMENT_ERRORS_SCANNED errors, however many the validator would produce", () => {
    let pulled = 0;
    function* endless(): Generator<ValueError> {
      for (let i = 0; ; i++) {
        pulled++;
        yield { path: `/edits/${i}`, value: i, schema: Type.String(), type: 0, message: "" } as never;
      }
    }
    const summary = summarizeValidationErrors(endless());
    expect(pulled).toBe(ARGUMENT_ERRORS_SCANNED + 1);
    expect(summary).toMatchObject({
      more: ARGUMENT_ERRORS_SCANNED - ARGUMENT_PROBLEMS_SHOWN,
      moreAtLeast: true,
    });
  });

  it("does not count errors under a field already counted (a wrong parent explains its children)", () => {
    const errors = [
      { path: "/edits/0", value: {}, schema: Type.Object({}), type: 0, message: "" },
      { path: "/edits/0/oldText", value: undefined, schema: Type.String(), type: 0, message: "" },
      { path: "/edits/00", value: 1, schema: Type.String(), type: 0, message: "" },
      { path: "/edits/0", value: {}, schema: Type.Object({}), type: 0, message: "" },
    ] as never as ValueError[];
    const summary = summarizeValidationErrors(errors);
    expect(summary.problems.map((p) => p.field)).toEqual(["edits[0]", "edits[00]"]);
    expect(summary.more).toBe(0);
  });
});

describe("inputs quoted in errors are short and well-formed", () => {
  it("a 1 MB string argument is quoted shortened, with its length", async () => {
    const { tool } = recordingTool(Type.Object({ path: Type.String(), content: Type.Integer() }) as never);
    const outcome = await invokeTool(tool, { path: "a", content: "a".repeat(1_048_576) });
    const text = textOf(outcome);
    expect(text).toMatch(/received string "a+…" \(1,048,576 chars\)/);
    expect(text.length).toBeLessThan(1000);
  });

  it("lone surrogates in an input never come back in the message", async () => {
    const { tool } = recordingTool(Type.Object({ path: Type.String(), content: Type.Integer() }) as never);
    const outcome = await invokeTool(tool, { path: "a", content: `x\uD800y${"\uDC00".repeat(3)}` });
    expect(LONE_SURROGATE.test(textOf(outcome))).toBe(false);
  });

  it("a tool error that repeats a huge input is bounded and well-formed", async () => {
    const tool: AgentTool = {
      ...recordingTool().tool,
      async execute(_id, params) {
        throw new Error(`cannot open ${(params as { path: string }).path}`);
      },
    };
    const outcome = await invokeTool(tool, { path: `\uDFFF${"p".repeat(2_000_000)}`, content: "" });
    const text = textOf(outcome);
    expect(outcome.errorCode).toBe("execution_failed");
    expect(text.length).toBeLessThan(ERROR_TEXT_MAX_CHARS + 100);
    expect(text).toContain("more characters cut]");
    expect(LONE_SURROGATE.test(text)).toBe(false);
  });
});

describe("outcomes are well-formed text", () => {
  it("a successful result that echoes a lone surrogate comes back with U+FFFD in its place", async () => {
    const tool: AgentTool = {
      ...recordingTool().tool,
      async execute(_id, params) {
        return {
          content: [{ type: "text", text: `Wrote ${(params as { path: string }).path}` }],
          details: {},
        };
      },
    };
    const outcome = await invokeTool(tool, { path: "tail\uDFFF", content: "" });
    expect(outcome.isError).toBe(false);
    expect(textOf(outcome)).toBe("Wrote tail\uFFFD");
  });
});

describe("invokeTool never rejects, whatever the arguments object does", () => {
  const hostile: [string, () => unknown][] = [
    [
      "a getter that throws",
      () =>
        Object.defineProperty({ path: "a" }, "content", {
          enumerable: true,
          get() {
            throw new Error("getter exploded");
          },
        }),
    ],
    [
      "a Proxy whose get trap throws",
      () =>
        new Proxy(
          { path: "a", content: "b" },
          {
            get() {
              throw new Error("trap");
            },
          },
        ),
    ],
    [
      "a Proxy whose ownKeys trap throws",
      () =>
        new Proxy(
          {},
          {
            ownKeys() {
              throw new Error("no keys");
            },
          },
        ),
    ],
    [
      "a revoked Proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({ path: "a", content: "b" }, {});
        revoke();
        return proxy;
      },
    ],
    [
      "a getter that throws a value whose toString throws",
      () =>
        Object.defineProperty({ path: "a" }, "content", {
          enumerable: true,
          get() {
            throw {
              toString() {
                throw new Error("again");
              },
            };
          },
        }),
    ],
    [
      "an object that contains itself",
      () => {
        const args: Record<string, unknown> = { path: "a", content: "b" };
        args.self = args;
        return args;
      },
    ],
    [
      "nesting 10,000 levels deep",
      () => {
        let deep: unknown = "x";
        for (let i = 0; i < 10_000; i++) deep = [deep];
        return { path: "a", content: deep };
      },
    ],
    ["an array claiming 2^32-1 items", () => ({ path: "a", content: new Array(2 ** 32 - 1) })],
  ];

  for (const [name, make] of hostile) {
    it(`${name}: invalid_arguments, the tool does not run`, async () => {
      const { tool, calls } = recordingTool();
      const outcome = await invokeTool(tool, make());
      expect(outcome.isError).toBe(true);
      expect(outcome.errorCode).toBe("invalid_arguments");
      expect(textOf(outcome)).toContain("Invalid arguments for write:");
      expect(textOf(outcome).length).toBeLessThan(2000);
      expect(calls).toHaveLength(0);
    });
  }

  it("the tool runs on the values that were validated (a getter read once)", async () => {
    const { tool, calls } = recordingTool();
    let reads = 0;
    const args = Object.defineProperty({ path: "a" }, "content", {
      enumerable: true,
      get() {
        reads++;
        return reads === 1 ? "checked" : 42;
      },
    });
    const outcome = await invokeTool(tool, args);
    expect(outcome.isError).toBe(false);
    expect(calls).toEqual([{ path: "a", content: "checked" }]);
    expect(reads).toBe(1);
  });

  it("a tool that throws a value whose fields and toString throw still gives an outcome", async () => {
    const poison = new Proxy(
      {},
      {
        get() {
          throw new Error("poison");
        },
        getPrototypeOf() {
          throw new Error("poison");
        },
      },
    );
    const tool: AgentTool = {
      ...recordingTool().tool,
      async execute() {
        throw poison;
      },
    };
    const outcome = await invokeTool(tool, { path: "a", content: "b" });
    expect(outcome).toMatchObject({ isError: true, errorCode: "execution_failed" });
  });
});

describe("__proto__, constructor and prototype keys are refused, never executed", () => {
  const cases: [string, unknown][] = [
    [
      "__proto__ at the top (as JSON.parse makes it)",
      JSON.parse('{"__proto__": {"path": "x", "content": "y"}}'),
    ],
    ["__proto__ inside a JSON string of the whole arguments", '{"__proto__": {"path": "x", "content": "y"}}'],
    ["constructor next to real fields", JSON.parse('{"path": "x", "content": "y", "constructor": {"a": 1}}')],
    ["prototype nested in a field", JSON.parse('{"path": "x", "content": "y", "extra": {"prototype": 1}}')],
  ];
  for (const [name, raw] of cases) {
    it(`${name}: invalid_arguments naming the key and what to send instead`, async () => {
      const { tool, calls } = recordingTool();
      const outcome = await invokeTool(tool, raw);
      expect(outcome.errorCode).toBe("invalid_arguments");
      expect(textOf(outcome)).toMatch(/expected no key named (__proto__|constructor|prototype)/);
      expect(textOf(outcome)).toMatch(
        /Remove (__proto__|constructor|prototype) and send its fields directly/,
      );
      expect(calls).toHaveLength(0);
    });
  }

  it("a __proto__ key inside an edit sent as JSON text is refused too", async () => {
    const { tool, calls } = recordingTool(editParams);
    const edits = '[{"__proto__": {"oldText": "a", "newText": "b"}}]';
    const outcome = await invokeTool(tool, { path: "x", edits });
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(textOf(outcome)).toContain("edits[0].__proto__");
    expect(calls).toHaveLength(0);
  });

  it("a host's prepareArguments that parses JSON cannot bring __proto__ back", async () => {
    const { tool, calls } = recordingTool();
    const outcome = await invokeTool(
      { ...tool, prepareArguments: (raw) => JSON.parse(raw as string) },
      '{"__proto__": {"path": "x", "content": "y"}}',
    );
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(calls).toHaveLength(0);
    expect(({} as { path?: string }).path).toBeUndefined();
  });
});

describe("arguments are copied as own data fields, whatever Object.prototype holds", () => {
  it("a setter or a read-only field on Object.prototype neither sees nor blocks an argument of that name", async () => {
    const { tool, calls } = recordingTool();
    const caught: unknown[] = [];
    Object.defineProperty(Object.prototype, "path", {
      configurable: true,
      set(value) {
        caught.push(value);
      },
    });
    Object.defineProperty(Object.prototype, "content", {
      configurable: true,
      writable: false,
      value: "frozen",
    });
    try {
      const outcome = await invokeTool(tool, { path: "a.txt", content: "text" });
      expect(outcome.isError).toBe(false);
      const ran = calls[0] as object;
      expect([Object.hasOwn(ran, "path"), Object.hasOwn(ran, "content")]).toEqual([true, true]);
      expect(Object.getOwnPropertyDescriptor(ran, "content")).toMatchObject({
        value: "text",
        writable: true,
      });
    } finally {
      delete (Object.prototype as { path?: unknown }).path;
      delete (Object.prototype as { content?: unknown }).content;
    }
    expect(caught).toEqual([]);
  });
});
