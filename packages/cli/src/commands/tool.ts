import { parseArgs } from "node:util";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { HELP } from "../help.js";
import type { CliIO } from "../io.js";
import { ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { assertToolName, openCliSession } from "../session.js";
import { EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, UsageError } from "../usage-error.js";

/** Renders an outcome the way the model sees it: text as is, images as a one-line stand-in. */
export function renderOutcomeText(outcome: ToolOutcome): string {
  return outcome.content
    .map((part) =>
      part.type === "text"
        ? part.text
        : `[image ${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes]`,
    )
    .join("\n");
}

function parseJsonArgs(text: string | undefined, toolName: string): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `The arguments for ${toolName} are not valid JSON (${(error as Error).message}). ` +
        `Quote them for the shell, e.g. tackle tool ${toolName} '{"path":"."}'.`,
    );
  }
}

/** `tackle tool <name> '<json args>'`. Returns the exit code. */
export async function toolCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ...ENV_OPTIONS, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      }),
    "tool",
  );
  if (values.help) {
    io.stdout(`${HELP.tool}\n`);
    return EXIT_OK;
  }
  const [name, jsonText, ...rest] = positionals;
  if (!name) throw new UsageError(`Name a tool, e.g. tackle tool ls '{"path":"."}'. See tackle tool --help.`);
  if (rest.length > 0) {
    throw new UsageError(
      `Unexpected argument "${rest[0]}". Pass the tool arguments as one quoted JSON object.`,
    );
  }
  assertToolName(name);
  const args = parseJsonArgs(jsonText, name);
  const session = await openCliSession(values.env, [name], environmentOptionsOf(values));
  try {
    const tool = session.tools.get(name)!;
    const outcome = await invokeTool(tool, args, { signal: io.signal, toolCallId: "cli" });
    io.stdout(values.json ? `${JSON.stringify(outcome, null, 2)}\n` : `${renderOutcomeText(outcome)}\n`);
    if (!outcome.isError) return EXIT_OK;
    // Arguments the tool could not accept are the caller's mistake: a usage error.
    return outcome.errorCode === "invalid_arguments" ? EXIT_USAGE : EXIT_TOOL_ERROR;
  } finally {
    // Artifacts stay on disk: the printed text may point at them (they expire by retention).
    await session.close();
  }
}
