import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FormatRegistry as UserFormatRegistry, Kind as UserKind, Type as UserType } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentTool } from "../src/tool.js";

/**
 * The built package validates with its own bundled copy of TypeBox's runtime
 * (scripts/bundle-typebox.mjs), while this test, like a user, builds schemas with the
 * `@sinclair/typebox` it installed. So these run `dist/`: in `src/` both are the same copy.
 */
const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
const fromDist = (file: string) => pathToFileURL(join(distDir, file)).href;
const core: typeof import("../src/index.js") = await import(fromDist("index.js"));
const typebox: typeof import("../src/typebox.js") = await import(fromDist("typebox.js"));

/** A tool that answers with the arguments it was called with. */
function echoTool(parameters: AgentTool["parameters"]): AgentTool {
  return {
    name: "echo",
    label: "Echo",
    description: "Answers with its arguments.",
    parameters,
    async execute(_id, params) {
      return { content: [{ type: "text", text: JSON.stringify(params) }], details: {} };
    },
  };
}

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((block) => block.text ?? "").join("");

const registered: string[] = [];
afterEach(() => {
  for (const name of registered.splice(0)) {
    typebox.FormatRegistry.Delete(name);
    typebox.TypeRegistry.Delete(name);
    UserFormatRegistry.Delete(name);
  }
});

describe("TypeBox in the built package", () => {
  it("is bundled: no built file imports @sinclair/typebox at run time, and TypeBox's license is kept", async () => {
    const files = (await readdir(distDir, { recursive: true })).filter((file) => file.endsWith(".js"));
    const sources = await Promise.all(files.map((file) => readFile(join(distDir, file), "utf8")));
    expect(files.length).toBeGreaterThan(0);
    sources.forEach((source, i) => {
      expect(source, files[i]).not.toMatch(/(?:from|import)\s*\(?\s*["']@sinclair\/typebox/);
    });
    const withLicense = sources.filter((source) => source.includes("Copyright (c) 2017-"));
    expect(withLicense).toHaveLength(1);
    expect(withLicense[0]).toContain("The MIT License (MIT)");
  });

  it("is a copy of its own, not the @sinclair/typebox a user imports", () => {
    expect(typebox.Type).not.toBe(UserType);
    expect(typebox.FormatRegistry).not.toBe(UserFormatRegistry);
    expect(typebox.Kind).toBe(UserKind);
  });

  it("validates a schema built with the user's own TypeBox, with the same repairs and messages", async () => {
    const userTool = echoTool(UserType.Object({ count: UserType.Integer({ minimum: 1 }) }));
    const ownTool = echoTool(typebox.Type.Object({ count: typebox.Type.Integer({ minimum: 1 }) }));

    const repaired = await core.invokeTool(userTool, { count: "5" });
    expect(repaired.isError).toBe(false);
    expect(textOf(repaired)).toBe('{"count":5}');

    const rejected = await core.invokeTool(userTool, { count: 0 });
    expect(rejected.isError).toBe(true);
    expect(rejected.errorCode).toBe("invalid_arguments");
    expect(textOf(rejected)).toContain("count: expected integer >= 1, received number 0");
    expect(textOf(rejected)).toBe(textOf(await core.invokeTool(ownTool, { count: 0 })));
  });

  it("honours a custom string format registered through @tackle/agent-core/typebox", async () => {
    registered.push("tackle-test-ticket");
    typebox.FormatRegistry.Set("tackle-test-ticket", (value) => /^[A-Z]+-\d+$/.test(value));
    const tool = echoTool(UserType.Object({ ticket: UserType.String({ format: "tackle-test-ticket" }) }));

    expect((await core.invokeTool(tool, { ticket: "AB-12" })).isError).toBe(false);
    const rejected = await core.invokeTool(tool, { ticket: "ab" });
    expect(rejected.isError).toBe(true);
    expect(rejected.errorCode).toBe("invalid_arguments");
  });

  it("does not see a format registered only in the user's own TypeBox (it must be registered through Tackle)", async () => {
    registered.push("tackle-test-anything");
    UserFormatRegistry.Set("tackle-test-anything", () => true);
    const tool = echoTool(UserType.Object({ value: UserType.String({ format: "tackle-test-anything" }) }));

    const rejected = await core.invokeTool(tool, { value: "x" });
    expect(rejected.isError).toBe(true);
    expect(rejected.errorCode).toBe("invalid_arguments");
  });

  it("honours a custom kind registered through @tackle/agent-core/typebox's TypeRegistry", async () => {
    registered.push("TackleTestEven");
    typebox.TypeRegistry.Set(
      "TackleTestEven",
      (_schema, value) => typeof value === "number" && value % 2 === 0,
    );
    const even = { [UserKind]: "TackleTestEven" } as unknown as ReturnType<typeof UserType.Number>;
    const tool = echoTool(UserType.Object({ n: even }));

    expect((await core.invokeTool(tool, { n: 4 })).isError).toBe(false);
    expect((await core.invokeTool(tool, { n: 3 })).isError).toBe(true);
  });
});
