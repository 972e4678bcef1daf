import type { TSchema } from "@sinclair/typebox";
import type { AnyToolDefinition } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { DEFAULTS, formatBytes } from "../src/defaults.js";
import { ALL_TOOL_NAMES, createToolDefinition, type ToolOptionsByName } from "../src/factories.js";
import { createReadToolDefinition } from "../src/tools/read.js";

/** Numbers a description may state: the DEFAULTS values, as written or as formatted bytes or seconds. */
function allowedNumbers(): Set<number> {
  // 0 means "none" (e.g. "Default 0." context lines), never a limit.
  const allowed = new Set<number>([0]);
  for (const value of Object.values(DEFAULTS)) {
    allowed.add(value);
    allowed.add(value / 1000);
    for (const match of formatBytes(value).matchAll(/\d+(?:\.\d+)?/g)) allowed.add(Number(match[0]));
  }
  return allowed;
}

/** Standalone numbers in `text` ("UTF-8", "sha256", "1-based" are words, not limits). */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![\w.-])\d+(?:\.\d+)?(?![\w-]|\.\d)/g)].map((match) => Number(match[0]));
}

/** The description, prompt snippet and guidelines, and every parameter description of a tool. */
function modelFacingText(definition: AnyToolDefinition): string[] {
  const texts = [
    definition.description,
    definition.promptSnippet ?? "",
    ...(definition.promptGuidelines ?? []),
  ];
  const walk = (schema: TSchema) => {
    if (typeof schema.description === "string") texts.push(schema.description);
    for (const child of Object.values((schema.properties ?? {}) as Record<string, TSchema>)) walk(child);
    if (schema.items) walk(schema.items as TSchema);
  };
  walk(definition.parameters);
  return texts;
}

describe("tool descriptions", () => {
  const allowed = allowedNumbers();

  for (const name of ALL_TOOL_NAMES) {
    it(`${name}: every number stated is a DEFAULTS value`, () => {
      const definition = createToolDefinition(name);
      for (const text of modelFacingText(definition)) {
        for (const number of numbersIn(text))
          expect(allowed.has(number), `${number} in "${text}"`).toBe(true);
      }
    });
  }

  it("is built from the options the code uses, not written by hand", () => {
    const read = createReadToolDefinition({ maxLines: 1234, maxBytes: 7 * 1024 });
    expect(read.description).toContain("1234 lines or 7 KB");
    expect(modelFacingText(read)).toContain("Most lines to show. Default and maximum 1234.");
  });

  it("states each tool's own limits (the number of the key the code uses, not just any default)", () => {
    const text = (name: "read" | "ls") => modelFacingText(createToolDefinition(name)).join("\n");
    expect(text("read")).toContain(`${DEFAULTS.maxLines} lines or ${formatBytes(DEFAULTS.maxBytes)}`);
    expect(text("read")).toContain(`A line longer than ${formatBytes(DEFAULTS.maxBytes)} is cut`);
    expect(text("ls")).toContain(`${DEFAULTS.lsLimit} entries by default`);
    expect(text("ls")).toContain(`Default ${DEFAULTS.lsLimit}.`);
  });

  for (const name of ["read", "write", "edit", "ls"] as const) {
    it(`${name}: says what it returns and how to recover`, () => {
      const description = createToolDefinition(name).description;
      expect(description).toMatch(/comes? back|Returns|List/);
      expect(description).toMatch(/\buse (ls|write|find)\b|read it again|Use find|how to continue/i);
    });
  }

  /**
   * Each tool with every number option set to a value no default has, and the DEFAULTS keys
   * those options replace: the description must state the new numbers and none of the old.
   */
  const withOptions: {
    [N in keyof ToolOptionsByName]?: {
      options: ToolOptionsByName[N];
      replaces: (keyof typeof DEFAULTS)[];
      /** The description states none of these limits (edit's diff limits). */
      unstated?: true;
    };
  } = {
    read: { options: { maxLines: 321, maxBytes: 3 * 1024 }, replaces: ["maxLines", "maxBytes"] },
    edit: {
      options: { maxLines: 321, maxBytes: 3 * 1024 },
      replaces: ["maxLines", "maxBytes"],
      unstated: true,
    },
    bash: {
      options: { maxLines: 321, maxBytes: 3 * 1024, defaultTimeoutSeconds: 45, maxTimeoutSeconds: 90 },
      replaces: ["maxLines", "maxBytes", "shellTimeoutSeconds", "shellMaxTimeoutSeconds"],
    },
    powershell: {
      options: { maxLines: 321, maxBytes: 3 * 1024, defaultTimeoutSeconds: 45, maxTimeoutSeconds: 90 },
      replaces: ["maxLines", "maxBytes", "shellTimeoutSeconds", "shellMaxTimeoutSeconds"],
    },
    grep: {
      options: { maxLines: 321, maxBytes: 3 * 1024, defaultLimit: 17, maxLineLength: 77 },
      replaces: ["maxLines", "maxBytes", "grepLimit", "grepMaxLineLength"],
    },
    find: {
      options: { maxLines: 321, maxBytes: 3 * 1024, defaultLimit: 17 },
      replaces: ["maxLines", "maxBytes", "findLimit"],
    },
  };

  for (const name of ALL_TOOL_NAMES) {
    const setting = withOptions[name as keyof typeof withOptions];
    if (!setting) continue;
    it(`${name}: with options, states the numbers in force and none it replaced`, () => {
      const definition = createToolDefinition(name, setting.options as never);
      const given = setting.unstated ? [] : Object.values(setting.options as Record<string, number>);
      const stated = modelFacingText(definition).flatMap(numbersIn);
      const replaced = new Set<number>();
      for (const key of setting.replaces) {
        replaced.add(DEFAULTS[key]);
        for (const match of formatBytes(DEFAULTS[key]).matchAll(/\d+(?:\.\d+)?/g))
          replaced.add(Number(match[0]));
      }
      for (const number of stated) expect(replaced.has(number), `${name} still states ${number}`).toBe(false);
      for (const value of given) {
        const shown = value >= 1024 && value % 1024 === 0 ? value / 1024 : value;
        expect(stated, `${name} does not state ${value}`).toContain(shown);
      }
    });
  }

  it("lowers a search tool's default page to a lower maxLines", () => {
    const grep = modelFacingText(createToolDefinition("grep", { maxLines: 10 })).join("\n");
    expect(grep).toContain("Returns at most 10 matches");
    expect(grep).toContain("Default 10, at most 10.");
    const find = modelFacingText(createToolDefinition("find", { maxLines: 10 })).join("\n");
    expect(find).toContain("Returns at most 10 paths");
  });

  it("finds the numbers a sentence states", () => {
    expect(numbersIn("at most 2000 lines or 50 KB, UTF-8, 1-based, sha256, 1.5 MB.")).toEqual([
      2000, 50, 1.5,
    ]);
  });
});
