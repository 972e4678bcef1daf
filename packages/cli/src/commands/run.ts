import { parseArgs } from "node:util";
import { type AgentEvent, agentLoop, createFauxModel, userMessage } from "@tackle/agent-core";
import { ALL_TOOL_NAMES } from "@tackle/tools";
import { HELP } from "../help.js";
import type { CliIO } from "../io.js";
import { ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { createEventRenderer } from "../render-events.js";
import { loadScript, toFauxReplies } from "../script.js";
import { openCliSession } from "../session.js";
import { EXIT_OK, EXIT_TOOL_ERROR, UsageError } from "../usage-error.js";

/** `tackle run --script FILE`: the agent loop with the faux model. Exit 1 when the run ends in an error. */
export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          ...ENV_OPTIONS,
          script: { type: "string" },
          json: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
      }),
    "run",
  );
  if (values.help) {
    io.stdout(`${HELP.run}\n`);
    return EXIT_OK;
  }
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}". Use --script FILE.`);
  if (!values.script)
    throw new UsageError("Name the script: tackle run --script FILE. See tackle run --help.");
  const script = await loadScript(values.script);
  const session = await openCliSession(values.env, ALL_TOOL_NAMES, environmentOptionsOf(values));
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
      if (values.json) {
        if (event.type !== "message_update") io.stdout(`${JSON.stringify(event)}\n`);
      } else {
        const text = render(event);
        if (text) io.stdout(text);
      }
    }
    await stream.result();
    return failed ? EXIT_TOOL_ERROR : EXIT_OK;
  } finally {
    await session.close({ dropArtifacts: true });
  }
}
