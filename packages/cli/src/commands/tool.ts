import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import type { ShellToolDetails } from "@tackle/tools";
import { ARTIFACT_RETENTION_MS } from "@tackle/tools/context";
import { formatBytes } from "@tackle/tools/text";
import { auditFileOf } from "../audit-file.js";
import { toolHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { AUDIT_OPTIONS, ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { Progress } from "../progress.js";
import { assertToolName, auditOptionsOf, newCallId, openCliSession } from "../session.js";
import { formatToolHelp, formatToolList, toolDefinitions, toolSummaries } from "../tool-catalog.js";
import { EXIT_ENVIRONMENT, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, UsageError } from "../usage-error.js";

/** The flags of `tackle tool`. */
export const TOOL_OPTIONS = {
  ...ENV_OPTIONS,
  ...AUDIT_OPTIONS,
  json: { type: "boolean" },
  input: { type: "string" },
  list: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

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

function parseJsonArgs(text: string | undefined, toolName: string, source: string): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `The arguments for ${[toolName, source].filter(Boolean).join(" ")} are not valid JSON (${(error as Error).message}). ` +
        `Quote them for the shell, e.g. tackle tool ${toolName} '{"path":"."}', or pass them on stdin with -.`,
    );
  }
}

/** The JSON text of the arguments: the positional, `-` (stdin) or `--input FILE|-`. */
async function argumentsText(
  positional: string | undefined,
  input: string | undefined,
  io: CliIO,
): Promise<{ text: string | undefined; source: string }> {
  if (positional !== undefined && input !== undefined) {
    throw new UsageError("Give the arguments once: either as JSON after the tool name or with --input.");
  }
  const from = input ?? (positional === "-" ? "-" : undefined);
  if (from === undefined) return { text: positional, source: "" };
  if (from === "-") {
    if (!io.readStdin) throw new UsageError("Reading the arguments from stdin is not available here.");
    return { text: await io.readStdin(), source: "from stdin" };
  }
  try {
    return { text: await readFile(from, "utf8"), source: `from ${from}` };
  } catch (error) {
    throw new UsageError(
      `--input ${from}: cannot read it (${(error as NodeJS.ErrnoException).code}). Check the path.`,
    );
  }
}

/** Tool error codes that mean the environment failed under the tool, not the tool's own work. */
const ENVIRONMENT_ERROR_CODES = new Set(["connection_lost"]);

/** The artifact a cut shell output points at, when the printed text names one. */
function pointedArtifact(outcome: ToolOutcome): { path: string; size: number } | undefined {
  const run = (outcome.details as ShellToolDetails | undefined)?.run;
  return run?.outputCut ? run.artifact : undefined;
}

function hours(ms: number): string {
  return `${Math.round(ms / 3_600_000)} h`;
}

/** `tackle tool <name> '<json args>'`, `tackle tool --list`, `tackle tool <name> --help`. Returns the exit code. */
export async function toolCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: TOOL_OPTIONS }),
    "tool",
  );
  const [name, jsonText, ...rest] = positionals;
  if (values.list) {
    if (name !== undefined)
      throw new UsageError(`--list takes no tool name. Use tackle tool ${name} --help.`);
    if (values.json) {
      const summaries = toolSummaries();
      const tools = toolDefinitions().map((definition, i) => ({
        ...summaries[i],
        description: definition.description,
        annotations: definition.annotations,
        parameters: definition.parameters,
      }));
      io.stdout(`${JSON.stringify(tools, null, 2)}\n`);
    } else {
      io.stdout(`${formatToolList()}\n`);
    }
    return EXIT_OK;
  }
  if (values.help) {
    if (name === undefined) {
      io.stdout(`${toolHelp(TOOL_OPTIONS)}\n`);
    } else {
      assertToolName(name);
      io.stdout(`${formatToolHelp(name)}\n`);
    }
    return EXIT_OK;
  }
  if (!name)
    throw new UsageError(
      `Name a tool, e.g. tackle tool ls '{"path":"."}'. tackle tool --list shows them; see tackle tool --help.`,
    );
  if (rest.length > 0) {
    throw new UsageError(
      `Unexpected argument "${rest[0]}". Pass the tool arguments as one quoted JSON object.`,
    );
  }
  assertToolName(name);
  const { text, source } = await argumentsText(jsonText, values.input, io);
  const args = parseJsonArgs(text, name, source);
  const session = await openCliSession(
    values.env,
    [name],
    environmentOptionsOf(values),
    auditFileOf(values.audit),
  );
  const progress = io.stderrIsTTY ? new Progress(io.stderr) : undefined;
  let keepArtifacts = false;
  try {
    const tool = session.tools.get(name)!;
    progress?.status(`running ${name}`);
    const outcome = await invokeTool(tool, args, {
      signal: io.signal,
      toolCallId: newCallId("tool"),
      ...auditOptionsOf(session, "user"),
      ...(progress
        ? {
            onUpdate: (partial: { content: ToolOutcome["content"] }) => {
              const text = partial.content.find((part) => part.type === "text");
              if (text?.type === "text") progress.output(text.text);
            },
          }
        : {}),
    });
    progress?.stop();
    const rendered = values.json ? JSON.stringify(outcome, null, 2) : renderOutcomeText(outcome);
    if (outcome.isError && outcome.errorCode === "invalid_arguments") {
      // The tool never ran: the caller must change the call. A usage error, on stderr.
      io.stderr(`tackle: ${rendered}\nSee tackle tool ${name} --help for its parameters.\n`);
      return EXIT_USAGE;
    }
    if (outcome.isError && ENVIRONMENT_ERROR_CODES.has(outcome.errorCode ?? "")) {
      io.stderr(`tackle: ${rendered}\n`);
      return EXIT_ENVIRONMENT;
    }
    io.stdout(`${rendered}\n`);
    const artifact = pointedArtifact(outcome);
    if (artifact) {
      // The printed text points at the full output: it stays, and the user learns for how long.
      keepArtifacts = true;
      const id = session.env.operations.id;
      const where = id === "local" ? "" : ` (in ${id})`;
      io.stderr(
        `tackle: the full output (${formatBytes(artifact.size)}) is kept at ${artifact.path}${where} for ${hours(ARTIFACT_RETENTION_MS)} (a later tackle run there removes it after that); delete it sooner with rm.\n`,
      );
    }
    return outcome.isError ? EXIT_TOOL_ERROR : EXIT_OK;
  } finally {
    progress?.stop();
    // A short output printed whole leaves nothing behind; a cut one keeps its artifact.
    await session.close({ dropArtifacts: !keepArtifacts });
  }
}
