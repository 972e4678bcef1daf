import { type Static, Type } from "@tackle/agent-core/typebox";

/** Schema of the edit tool's arguments. */
export const editParameters = Type.Object({
  path: Type.String({ description: "File to edit, relative to the working directory or absolute." }),
  edits: Type.Array(
    Type.Object({
      oldText: Type.String({
        description: "Exact text to replace, copied from the file (include enough lines to match once).",
      }),
      newText: Type.String({ description: "Text that replaces oldText." }),
      replaceAll: Type.Optional(
        Type.Boolean({
          description: "Replace every occurrence of oldText instead of exactly one. Default false.",
        }),
      ),
    }),
    { minItems: 1, description: "Replacements, all matched against the file as it is now." },
  ),
  dryRun: Type.Optional(Type.Boolean({ description: "Show the diff without writing. Default false." })),
});

/** Arguments of the edit tool. */
export type EditParams = Static<typeof editParameters>;
