import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { ALL_TOOL_NAMES, type ShellToolDetails } from "@tackle/tools";
import { ARTIFACT_RETENTION_MS } from "@tackle/tools/context";
import { detectPowershell } from "@tackle/tools/shell";
import { formatBytes } from "@tackle/tools/text";
import { auditFileOf } from "../audit-file.js";
import { parseEnvUrl } from "../env-url.js";
import { type EnvironmentOptions, openEnvironment } from "../environment.js";
import { toolHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { asksForJson, failureOutcome } from "../json-failure.js";
import { AUDIT_OPTIONS, ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { Progress } from "../progress.js";
import { assertToolName, auditOptionsOf, newCallId, openCliSession } from "../session.js";
import {
  formatToolHelp,
  formatToolList,
  NO_PWSH,
  toolDefinitions,
  toolSummaries,
  type UnavailableTools,
} from "../tool-catalog.js";
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
      { code: "invalid_json" },
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

/**
 * The exit code of a tool outcome: 2 for arguments the tool refused (it never ran), 3 when the
 * environment failed under it, 1 for any other error, 0 for success.
 */
function exitCodeOf(outcome: ToolOutcome): number {
  if (!outcome.isError) return EXIT_OK;
  if (outcome.errorCode === "invalid_arguments") return EXIT_USAGE;
  if (ENVIRONMENT_ERROR_CODES.has(outcome.errorCode ?? "")) return EXIT_ENVIRONMENT;
  return EXIT_TOOL_ERROR;
}

/**
 * The tools the environment (`--env`, default this machine) cannot run: powershell where `pwsh`
 * does not start there. The environment is opened for the question and closed again.
 */
async function unavailableTools(
  envUrl: string | undefined,
  options: EnvironmentOptions,
): Promise<UnavailableTools> {
  const env = await openEnvironment(parseEnvUrl(envUrl), options);
  try {
    const pwsh = await detectPowershell(env.operations, { cwd: env.cwd });
    return new Map(pwsh.available ? [] : [["powershell", NO_PWSH]]);
  } finally {
    await env.dispose();
  }
}

function hours(ms: number): string {
  return `${Math.round(ms / 3_600_000)} h`;
}

/**
 * `tackle tool <name> '<json args>'`, `tackle tool --list`, `tackle tool <name> --help`. Returns the
 * exit code. With `--json`, every outcome is one JSON object on stdout, a usage or environment
 * error included (see {@link failureOutcome}); the exit code stays the same.
 */
export async function toolCommand(argv: string[], io: CliIO): Promise<number> {
  if (!asksForJson(argv)) return runToolCommand(argv, io);
  try {
    return await runToolCommand(argv, io);
  } catch (error) {
    const { outcome, exitCode } = failureOutcome(error);
    io.stdout(`${JSON.stringify(outcome, null, 2)}\n`);
    return exitCode;
  }
}

async function runToolCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: TOOL_OPTIONS }),
    "tool",
  );
  const [name, jsonText, ...rest] = positionals;
  if (values.list) {
    if (name !== undefined)
      throw new UsageError(`--list takes no tool name. Use tackle tool ${name} --help.`);
    const unavailable = await unavailableTools(values.env, environmentOptionsOf(values));
    if (values.json) {
      const summaries = toolSummaries(unavailable);
      const tools = toolDefinitions().map((definition, i) => ({
        ...summaries[i],
        description: definition.description,
        annotations: definition.annotations,
        parameters: definition.parameters,
      }));
      io.stdout(`${JSON.stringify(tools, null, 2)}\n`);
    } else {
      io.stdout(`${formatToolList(unavailable)}\n`);
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
  // The whole set, as `tackle mcp` serves it: a tool's hints name the tools that exist next to it
  // ("Use find or ls to see what exists"), so a call answers here as it answers a model over MCP.
  const session = await openCliSession(
    values.env,
    ALL_TOOL_NAMES,
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
    const exitCode = exitCodeOf(outcome);
    if (values.json) {
      io.stdout(`${JSON.stringify(outcome, null, 2)}\n`);
    } else if (exitCode === EXIT_USAGE) {
      // The tool never ran: the caller must change the call. A usage error, on stderr.
      io.stderr(
        `tackle: ${renderOutcomeText(outcome)}\nSee tackle tool ${name} --help for its parameters.\n`,
      );
    } else if (exitCode === EXIT_ENVIRONMENT) {
      io.stderr(`tackle: ${renderOutcomeText(outcome)}\n`);
    } else {
      io.stdout(`${renderOutcomeText(outcome)}\n`);
    }
    if (exitCode === EXIT_USAGE || exitCode === EXIT_ENVIRONMENT) return exitCode;
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
    return exitCode;
  } finally {
    progress?.stop();
    // A short output printed whole leaves nothing behind; a cut one keeps its artifact.
    await session.close({ dropArtifacts: !keepArtifacts });
  }
}
