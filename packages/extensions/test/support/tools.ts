import { Type } from "@sinclair/typebox";
import { defineTool } from "../../src/define-tool.js";

/** A built-in-like tool that echoes its input and the environment it ran in. */
export function echoDefinition(name = "echo", tag = "builtin") {
  return defineTool({
    name,
    label: name,
    description: `Echoes text.\nSecond line of the ${name} description.`,
    promptSnippet: "Echo text back",
    promptGuidelines: ["Prefer short texts.", `Use ${name} only for tests.`],
    annotations: { readOnlyHint: true },
    parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Integer({ minimum: 1 })) }),
    async execute(_id, { text, times = 1 }, _signal, _onUpdate, ctx) {
      return {
        content: [{ type: "text", text: text.repeat(times) }],
        details: { tag, environment: ctx.operations.id, times },
      };
    },
  });
}
