import { Value } from "@sinclair/typebox/value";
import type { AnyToolDefinition } from "@tackle/extensions";
import { ALL_TOOL_NAMES, createToolDefinition } from "@tackle/tools";
import { describe, expect, it } from "vitest";
import { MCP_OPTIONS } from "../src/commands/mcp.js";
import { RUN_OPTIONS } from "../src/commands/run.js";
import { TOOL_OPTIONS } from "../src/commands/tool.js";
import { OPTION_HELP } from "../src/help.js";
import { EXIT, tackle } from "./helpers.js";

const definitionOf = (name: (typeof ALL_TOOL_NAMES)[number]) =>
  createToolDefinition(name) as AnyToolDefinition;

interface Schema {
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  description?: string;
  type?: string;
}

describe("help", () => {
  it("tackle with no arguments prints the help to stderr and exits 2", async () => {
    const result = await tackle([]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage:");
  });

  it("--help prints to stdout, exits 0, and documents every exit code", async () => {
    for (const args of [["--help"], ["tool", "--help"], ["mcp", "--help"], ["run", "--help"]]) {
      const result = await tackle(args);
      expect(result.code, args.join(" ")).toBe(EXIT.ok);
      expect(result.stderr, args.join(" ")).toBe("");
      for (const code of Object.values(EXIT))
        expect(result.stdout, args.join(" ")).toMatch(new RegExp(`^  ${code}  `, "m"));
      expect(result.stdout).toMatch(/3 {2}the environment could not be reached or used/);
    }
  });

  it("each command's help lists every flag the command accepts, each with a description", async () => {
    const commands = { tool: TOOL_OPTIONS, mcp: MCP_OPTIONS, run: RUN_OPTIONS };
    for (const [command, options] of Object.entries(commands)) {
      const help = (await tackle([command, "--help"])).stdout;
      for (const flag of Object.keys(options)) {
        expect(help, `${command} --${flag}`).toMatch(new RegExp(`^  (-\\w, )?--${flag}\\b`, "m"));
        expect(OPTION_HELP[flag]?.text, `help text of --${flag}`).toBeTruthy();
      }
    }
  });

  it("an unknown command or flag is a usage error on stderr that points at the help", async () => {
    const unknown = await tackle(["serve"]);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain('Unknown command "serve"');
    expect(unknown.stderr).toContain("tackle --help");
    const flag = await tackle(["run", "--colour"]);
    expect(flag.code).toBe(EXIT.usage);
    expect(flag.stdout).toBe("");
    expect(flag.stderr).toContain("--colour");
    expect(flag.stderr).toContain("tackle run --help");
  });
});

describe("tackle tool --list", () => {
  it("lists every tool with read-only or not and the first sentence of its own description", async () => {
    const result = await tackle(["tool", "--list"]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    for (const name of ALL_TOOL_NAMES) {
      const definition = definitionOf(name);
      const line = lines.find((text) => text.trimStart().startsWith(`${name} `));
      expect(line, name).toBeDefined();
      // A tool the environment cannot run says so in parentheses before its summary.
      const [, listedName, access, summary] =
        /^\s+(\S+)\s+(read-only|writes)\s+(?:\([^)]*\) )?(.+)$/.exec(line!) ?? [];
      expect(listedName).toBe(name);
      expect(access, name).toBe(definition.annotations?.readOnlyHint ? "read-only" : "writes");
      expect(definition.description.replace(/\s+/g, " ").startsWith(summary!), name).toBe(true);
    }
  });

  it("--json gives each tool's schema exactly as the tool defines it", async () => {
    const result = await tackle(["tool", "--list", "--json"]);
    expect(result.code).toBe(EXIT.ok);
    const tools = JSON.parse(result.stdout) as { name: string; readOnly: boolean; parameters: unknown }[];
    expect(tools.map((tool) => tool.name)).toEqual([...ALL_TOOL_NAMES]);
    for (const tool of tools) {
      const definition = definitionOf(tool.name as (typeof ALL_TOOL_NAMES)[number]);
      expect(tool.parameters).toEqual(JSON.parse(JSON.stringify(definition.parameters)));
      expect(tool.readOnly).toBe(definition.annotations?.readOnlyHint === true);
    }
  });
});

describe("tackle tool <name> --help", () => {
  for (const name of ALL_TOOL_NAMES) {
    it(`${name}: description, every parameter from the schema, and an example the schema accepts`, async () => {
      const definition = definitionOf(name);
      const result = await tackle(["tool", name, "--help"]);
      expect(result.code).toBe(EXIT.ok);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(definition.description);
      const check = (schema: Schema) => {
        const required = new Set(schema.required ?? []);
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          const need = required.has(key) ? "required" : "optional";
          expect(result.stdout, `${name}.${key}`).toMatch(new RegExp(`^\\s+${key} \\(.*, ${need}\\)$`, "m"));
          if (property.description) expect(result.stdout).toContain(property.description);
          const nested = property.type === "array" ? property.items : property;
          if (nested?.properties) check(nested);
        }
      };
      check(definition.parameters as Schema);
      const example = new RegExp(`^  tackle tool ${name} '(.*)'$`, "m").exec(result.stdout)?.[1];
      expect(example, "example line").toBeDefined();
      const args = JSON.parse(example!.replace(/'\\''/g, "'"));
      expect(Value.Check(definition.parameters, args), JSON.stringify(args)).toBe(true);
    });
  }

  it("an unknown tool's help is a usage error listing the tools", async () => {
    const result = await tackle(["tool", "cat", "--help"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain('Unknown tool "cat"');
    expect(result.stderr).toContain(ALL_TOOL_NAMES.join(", "));
  });
});
