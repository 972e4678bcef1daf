import { Type } from "@sinclair/typebox";
import type { EventStream } from "../src/event-stream.js";
import type { AgentEvent } from "../src/events.js";
import type { AgentTool } from "../src/tool.js";

/** Collects every event of a run and its result. */
export async function collect<T>(
  stream: EventStream<AgentEvent, T>,
): Promise<{ events: AgentEvent[]; result: T }> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result() };
}

/** Event types, with the tool call id or message role where it tells the order apart. */
export function describeEvents(events: AgentEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "message_start":
      case "message_end":
        return `${event.type}:${event.message.role}`;
      case "tool_execution_start":
      case "tool_execution_end":
      case "tool_execution_update":
        return `${event.type}:${event.toolCallId}`;
      default:
        return event.type;
    }
  });
}

/** A promise with its resolve function outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const echoParams = Type.Object({ text: Type.String(), count: Type.Optional(Type.Integer()) });

/** A tool that returns its arguments as text, after `wait` (if given) settles. */
export function echoTool(
  name = "echo",
  options: {
    wait?: (args: { text: string }, signal: AbortSignal | undefined) => Promise<void>;
    executionMode?: "parallel" | "sequential";
    terminate?: boolean;
    log?: string[];
  } = {},
): AgentTool<typeof echoParams, { args: unknown }> {
  const tool: AgentTool<typeof echoParams, { args: unknown }> = {
    name,
    label: name,
    description: `Echoes text (${name}).`,
    parameters: echoParams,
    async execute(_id, args, signal) {
      options.log?.push(`start:${args.text}`);
      await options.wait?.(args, signal);
      options.log?.push(`end:${args.text}`);
      const result = {
        content: [{ type: "text" as const, text: `${name}:${args.text}` }],
        details: { args },
      };
      return options.terminate === undefined ? result : { ...result, terminate: options.terminate };
    },
  };
  if (options.executionMode !== undefined) tool.executionMode = options.executionMode;
  return tool;
}

/** Waits until `signal` aborts, then throws like a real I/O call would. */
export function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(new Error("operation aborted")), { once: true });
  });
}
