import { parseArgs } from "node:util";
import { type AgentEvent, agentLoop, type Model, type StreamFn, userMessage } from "@tackle/agent-core";
import { createFauxModel } from "@tackle/agent-core/testing";
import { aiSdkModel } from "@tackle/ai-sdk";
import { agentSystemPrompt } from "../agent-prompt.js";
import { auditFileOf } from "../audit-file.js";
import { runHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { loadModel, parseModelSpec } from "../load-model.js";
import { AUDIT_OPTIONS, ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { Progress } from "../progress.js";
import { createEventRenderer } from "../render-events.js";
import { trackRunProgress } from "../run-progress.js";
import { loadScript, toFauxReplies } from "../script.js";
import {
  auditOptionsOf,
  type CliSession,
  chooseToolNames,
  dropUnavailablePowershell,
  openCliSession,
} from "../session.js";
import { limitTurns } from "../turn-limit.js";
import { EXIT_OK, EXIT_TOOL_ERROR, UsageError } from "../usage-error.js";
import { chooseNativeSet, parseToolFormat, useNativeTools } from "./run-tools.js";

/** How many times `tackle run --model` asks the model, unless `--max-turns` says otherwise. */
export const DEFAULT_MAX_TURNS = 50;

/** The flags of `tackle run`. */
export const RUN_OPTIONS = {
  ...ENV_OPTIONS,
  ...AUDIT_OPTIONS,
  model: { type: "string" },
  "base-url": { type: "string" },
  script: { type: "string" },
  "max-turns": { type: "string" },
  tools: { type: "string" },
  "tool-format": { type: "string" },
  "read-only": { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type RunValues = ReturnType<typeof parseRunArgs>["values"];

function parseRunArgs(argv: string[]) {
  return parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: RUN_OPTIONS }),
    "run",
  );
}

/**
 * `tackle run --model provider:id "task"`: the agent loop on a real model through the AI SDK.
 * `tackle run --script FILE`: the same loop with the faux model on a scripted conversation.
 * Exit 1 when the run ends in an error, is stopped by `--max-turns`, or is interrupted.
 */
export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseRunArgs(argv);
  if (values.help) {
    io.stdout(`${runHelp(RUN_OPTIONS)}\n`);
    return EXIT_OK;
  }
  if (values.model !== undefined && values.script !== undefined)
    throw new UsageError("Give --model or --script, not both. See tackle run --help.");
  if (values.model === undefined && values["base-url"] !== undefined)
    throw new UsageError("--base-url goes with --model (the provider's address). See tackle run --help.");
  if (values.model === undefined && values["tool-format"] !== undefined)
    throw new UsageError(
      "--tool-format goes with --model (a script names Tackle's tools). See tackle run --help.",
    );
  const maxTurns = parseMaxTurns(values["max-turns"]);
  if (values.script !== undefined) {
    if (positionals.length > 0)
      throw new UsageError(`Unexpected argument "${positionals[0]}": the script holds the prompt.`);
    return runScript(values.script, values, maxTurns, io);
  }
  if (values.model === undefined) {
    throw new UsageError(
      'Name a model and a task: tackle run --model anthropic:claude-sonnet-4-5 "Fix the failing test", or run a script: tackle run --script FILE. See tackle run --help.',
    );
  }
  return runModel(values.model, await promptOf(positionals, io), values, maxTurns ?? DEFAULT_MAX_TURNS, io);
}

function parseMaxTurns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const turns = Number(text);
  if (!Number.isInteger(turns) || turns < 1)
    throw new UsageError(
      `--max-turns takes a whole number of turns, 1 or more, e.g. --max-turns 20; got "${text}".`,
    );
  return turns;
}

/** The task: the positional words, or stdin for `-`. */
async function promptOf(positionals: string[], io: CliIO): Promise<string> {
  if (positionals.length === 1 && positionals[0] === "-") {
    if (io.readStdin === undefined) throw new UsageError("The task cannot be read from stdin here.");
    const text = (await io.readStdin()).trim();
    if (text === "") throw new UsageError("The task read from stdin is empty.");
    return text;
  }
  const text = positionals.join(" ").trim();
  if (text === "")
    throw new UsageError(
      'Say what to do: tackle run --model anthropic:claude-sonnet-4-5 "Fix the failing test".',
    );
  return text;
}

async function runScript(
  file: string,
  values: RunValues,
  maxTurns: number | undefined,
  io: CliIO,
): Promise<number> {
  const script = await loadScript(file);
  const session = await openCliSession(
    values.env,
    chooseToolNames(values),
    environmentOptionsOf(values),
    auditFileOf(values.audit),
  );
  try {
    const faux = createFauxModel(toFauxReplies(script), { recordContexts: false });
    return await streamRun(
      {
        prompt: script.prompt,
        systemPrompt: script.systemPrompt,
        session,
        model: faux.model,
        streamFn: faux.streamFn,
        maxTurns,
        json: values.json === true,
        streamText: false,
      },
      io,
    );
  } finally {
    await session.close({ dropArtifacts: true });
  }
}

async function runModel(
  spec: string,
  prompt: string,
  values: RunValues,
  maxTurns: number,
  io: CliIO,
): Promise<number> {
  const { provider, id } = parseModelSpec(spec);
  const nativeSet = chooseNativeSet({
    format: parseToolFormat(values["tool-format"]),
    provider,
    modelId: id,
    toolsListed: values.tools !== undefined,
    readOnly: values["read-only"] === true,
  });
  // The model first: a missing key or provider package is reported before any connection is made.
  const languageModel = await loadModel(spec, { baseUrl: values["base-url"] });
  const environment = environmentOptionsOf(values);
  const session = await openCliSession(
    values.env,
    chooseToolNames(values),
    environment,
    auditFileOf(values.audit),
  );
  try {
    await dropUnavailablePowershell(session, values.tools !== undefined);
    if (nativeSet !== undefined) {
      // The shell of the native set runs in the sandbox --sandbox asked for, as bash would.
      const shell = environment.sandbox !== undefined ? { sandbox: environment.sandbox } : undefined;
      useNativeTools(session, nativeSet, shell);
    }
    const { model, streamFn } = aiSdkModel(languageModel);
    return await streamRun(
      {
        prompt,
        systemPrompt: agentSystemPrompt(session),
        session,
        model,
        streamFn,
        maxTurns,
        json: values.json === true,
        streamText: true,
      },
      io,
    );
  } finally {
    await session.close({ dropArtifacts: true });
  }
}

interface RunSetup {
  prompt: string;
  systemPrompt: string | undefined;
  session: CliSession;
  model: Model;
  streamFn: StreamFn;
  maxTurns: number | undefined;
  json: boolean;
  /** Print the assistant's text as it arrives (a real model). */
  streamText: boolean;
}

/**
 * Runs the loop and prints it: readable lines (each tool call and result with its timing, the
 * assistant's text) or `--json` events, then a summary. Ctrl-C (`io.signal`) aborts the model
 * request and the running tools (their process trees end), and the run ends with a summary.
 */
async function streamRun(setup: RunSetup, io: CliIO): Promise<number> {
  const progress = io.stderrIsTTY ? new Progress(io.stderr) : undefined;
  const track = progress ? trackRunProgress(progress) : undefined;
  // Events go to stdout; on a terminal the status line on stderr steps aside for them.
  const print = (text: string) => (progress ? progress.around(() => io.stdout(text)) : io.stdout(text));
  let limited = false;
  const streamFn =
    setup.maxTurns === undefined
      ? setup.streamFn
      : limitTurns(setup.streamFn, setup.maxTurns, () => {
          limited = true;
        });
  try {
    const render = createEventRenderer(undefined, { streamText: setup.streamText });
    const stream = agentLoop(
      [userMessage(setup.prompt)],
      {
        ...(setup.systemPrompt ? { systemPrompt: setup.systemPrompt } : {}),
        messages: [],
        tools: [...setup.session.tools.values()],
      },
      { model: setup.model, streamFn, ...auditOptionsOf(setup.session, "model") },
      io.signal,
    );
    let failed = false;
    for await (const event of stream as AsyncIterable<AgentEvent>) {
      if (event.type === "message_end" && event.message.role === "assistant") {
        failed ||= event.message.stopReason === "error" || event.message.stopReason === "aborted";
      }
      track?.(event);
      if (setup.json) {
        if (event.type !== "message_update") print(`${JSON.stringify(event)}\n`);
      } else {
        const text = render(event);
        if (text) print(text);
      }
    }
    await stream.result();
    if (io.signal.aborted && !setup.json)
      print("interrupted: the model request was aborted and running tools were stopped.\n");
    return failed || limited || io.signal.aborted ? EXIT_TOOL_ERROR : EXIT_OK;
  } finally {
    progress?.stop();
  }
}
