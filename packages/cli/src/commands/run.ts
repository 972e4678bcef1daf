import { parseArgs } from "node:util";
import { type AgentEvent, agentLoop, createFauxModel, userMessage } from "@tackle/agent-core";
import { ALL_TOOL_NAMES } from "@tackle/tools";
import { runHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { Progress } from "../progress.js";
import { createEventRenderer } from "../render-events.js";
import { trackRunProgress } from "../run-progress.js";
import { loadScript, toFauxReplies } from "../script.js";
import { openCliSession } from "../session.js";
import { EXIT_OK, EXIT_TOOL_ERROR, UsageError } from "../usage-error.js";

/** The flags of `tackle run`. */
export const RUN_OPTIONS = {
  ...ENV_OPTIONS,
  script: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** `tackle run --script FILE`: the agent loop with the faux model. Exit 1 when the run ends in an error. */
export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: RUN_OPTIONS }),
    "run",
  );
  if (values.help) {
    io.stdout(`${runHelp(RUN_OPTIONS)}\n`);
    return EXIT_OK;
  }
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}". Use --script FILE.`);
  if (!values.script)
    throw new UsageError("Name the script: tackle run --script FILE. See tackle run --help.");
  const script = await loadScript(values.script);
  const session = await openCliSession(values.env, ALL_TOOL_NAMES, environmentOptionsOf(values));
  const progress = io.stderrIsTTY ? new Progress(io.stderr) : undefined;
  const track = progress ? trackRunProgress(progress) : undefined;
  // Events go to stdout; on a terminal the status line on stderr steps aside for them.
  const print = (text: string) => (progress ? progress.around(() => io.stdout(text)) : io.stdout(text));
  try {
    const faux = createFauxModel(toFauxReplies(script), { recordContexts: false });
    const render = createEventRenderer();
    const stream = agentLoop(
      [userMessage(script.prompt)],
      {
        ...(script.systemPrompt ? { systemPrompt: script.systemPrompt } : {}),
        messages: [],
        tools: [...session.tools.values()],
      },
      { model: faux.model, streamFn: faux.streamFn },
      io.signal,
    );
    let failed = false;
    for await (const event of stream as AsyncIterable<AgentEvent>) {
      if (event.type === "message_end" && event.message.role === "assistant") {
        failed ||= event.message.stopReason === "error" || event.message.stopReason === "aborted";
      }
      track?.(event);
      if (values.json) {
        if (event.type !== "message_update") print(`${JSON.stringify(event)}\n`);
      } else {
        const text = render(event);
        if (text) print(text);
      }
    }
    await stream.result();
    return failed ? EXIT_TOOL_ERROR : EXIT_OK;
  } finally {
    progress?.stop();
    await session.close({ dropArtifacts: true });
  }
}
