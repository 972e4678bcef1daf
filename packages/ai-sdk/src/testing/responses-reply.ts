// OpenAI Responses API streaming replies for the local provider server. Where the wire format
// comes from: the API reference "Create a model response" with `stream: true` and "Streaming
// events" (platform.openai.com/docs/api-reference/responses-streaming): `data: {event}` lines,
// `response.created`, then per output item `response.output_item.added` and
// `response.output_item.done` (a `message` item's text arrives as `response.output_text.delta`
// events in between), then `response.completed` with `usage`. Output items as the reference
// defines them: `message`, `apply_patch_call` (`call_id`, `operation` with `type`, `path`,
// `diff`), `shell_call` (`call_id`, `action.commands`, `timeout_ms`, `max_output_length`),
// `function_call`.
import type { Reply } from "./provider-server.js";

/** One scripted Responses reply: output items (each sent added, then done), then text if any. */
export interface ResponsesTurn {
  /** Output items as the API sends them (`id`, `call_id` and the item's own fields); `status` is set here. */
  items?: Record<string, unknown>[];
  /** A final `message` item with this text. */
  text?: string;
}

/** A streamed Responses API reply holding `turn`'s output items, and its text as a message item. */
export function openaiResponsesReply(turn: ResponsesTurn, model = "gpt-5.1"): Reply {
  const frame = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
  const frames = [
    frame({ type: "response.created", response: { id: "resp_1", created_at: 1_700_000_000, model } }),
  ];
  const items = turn.items ?? [];
  items.forEach((item, index) => {
    frames.push(
      frame({
        type: "response.output_item.added",
        output_index: index,
        item: { ...item, status: "in_progress" },
      }),
      frame({
        type: "response.output_item.done",
        output_index: index,
        item: { ...item, status: "completed" },
      }),
    );
  });
  if (turn.text !== undefined) {
    const index = items.length;
    const message = { type: "message", id: "msg_1", role: "assistant" };
    frames.push(
      frame({ type: "response.output_item.added", output_index: index, item: { ...message, content: [] } }),
      frame({ type: "response.output_text.delta", item_id: "msg_1", output_index: index, delta: turn.text }),
      frame({
        type: "response.output_item.done",
        output_index: index,
        item: {
          ...message,
          status: "completed",
          content: [{ type: "output_text", text: turn.text, annotations: [] }],
        },
      }),
    );
  }
  frames.push(
    frame({
      type: "response.completed",
      response: {
        usage: {
          input_tokens: 900,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 30,
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    }),
  );
  return { kind: "sse", frames };
}
