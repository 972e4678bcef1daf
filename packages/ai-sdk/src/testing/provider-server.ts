// A local HTTP server on 127.0.0.1 that speaks the providers' documented streaming wire formats,
// so the real @ai-sdk/openai, @ai-sdk/openai-compatible and @ai-sdk/anthropic clients can be
// tested end to end without a network.
//
// Where each wire format comes from:
// - OpenAI Chat Completions streaming: the API reference "Create chat completion" with
//   `stream: true` and "The chat completion chunk object"
//   (platform.openai.com/docs/api-reference/chat/create, .../chat-streaming/streaming):
//   `data: {chunk}` lines, `choices[].delta.content` for text, `choices[].delta.tool_calls[]`
//   with `index`, `id`, `type: "function"`, `function.name` on the first delta of a call and
//   `function.arguments` pieces after it, `finish_reason` on the last choice chunk, a final
//   chunk with empty `choices` and `usage` when `stream_options.include_usage` is set, then
//   `data: [DONE]`. Errors: a JSON body `{"error": {"message", "type", "param", "code"}}` with
//   the HTTP status (docs "Error codes": 401 invalid key, 429 rate limit).
// - Anthropic Messages streaming: the "Streaming Messages" guide
//   (docs.anthropic.com/en/docs/build-with-claude/streaming): named SSE events
//   `message_start`, `content_block_start` (a `text`, `thinking` or `tool_use` block),
//   `content_block_delta` (`text_delta`, `thinking_delta`, `signature_delta`,
//   `input_json_delta` with `partial_json`), `content_block_stop`, `message_delta` (with
//   `stop_reason` and output `usage`), `message_stop`, `ping`, and an in-stream `error` event
//   (`{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`).
// - Without `stream: true` (the SDK's `generateText`), one JSON body: OpenAI's "The chat
//   completion object" (`choices[].message` with `content` and `tool_calls[]` whose
//   `function.arguments` is a JSON string, `finish_reason`, `usage`), Anthropic's "Messages"
//   response (`content` blocks `thinking`/`text`/`tool_use` with a parsed `input`, `stop_reason`,
//   `usage`). A scripted reply answers both ways, so one script serves either call.
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What one scripted reply is: SSE frames (and the same reply as one JSON body, for a request
 * that did not ask to stream), an HTTP error, or a stream held open until the client leaves.
 */
export type Reply =
  | { kind: "sse"; frames: string[]; json?: unknown }
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "hang"; frames: string[] };

/** A recorded request. */
export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export type Script = (Reply | ((request: SeenRequest) => Reply))[];

export interface ProviderServer {
  url: string;
  requests: SeenRequest[];
  /** Resolves when a held-open stream's client disconnected. */
  clientLeft: Promise<void>;
  /** Replies not used yet. */
  readonly remaining: number;
  close(): Promise<void>;
}

/** Serves `script` in order to every POST, whatever the path. */
export async function startProviderServer(script: Script): Promise<ProviderServer> {
  const requests: SeenRequest[] = [];
  let next = 0;
  let leftResolve: () => void = () => {};
  const clientLeft = new Promise<void>((resolve) => {
    leftResolve = resolve;
  });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const seen: SeenRequest = {
      path: req.url ?? "",
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(seen);
    const entry = script[next++];
    if (entry === undefined) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `script ran out at request ${next}` } }));
      return;
    }
    const reply = typeof entry === "function" ? entry(seen) : entry;
    if (reply.kind === "error") {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body));
      return;
    }
    if (reply.kind === "sse" && seen.body?.stream !== true) {
      if (reply.json === undefined) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: "this scripted reply only streams: send stream: true" } }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const frame of reply.frames) res.write(frame);
    if (reply.kind === "sse") {
      res.end();
      return;
    }
    res.on("close", () => leftResolve());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clientLeft,
    get remaining() {
      return script.length - next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ScriptedCall {
  id: string;
  name: string;
  args: unknown;
}

export interface ScriptedTurn {
  thinking?: { text: string; signature: string };
  text?: string;
  calls?: ScriptedCall[];
  /** Provider finish reason; default from the content (OpenAI `tool_calls`/`stop`, Anthropic `tool_use`/`end_turn`). */
  finish?: string;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** One OpenAI Chat Completions streamed reply. */
export function openaiReply(turn: ScriptedTurn, model = "gpt-4.1"): Reply {
  const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const frames = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces(turn.text ?? "", 6)) frames.push(chunk({ content: piece }));
  (turn.calls ?? []).forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of pieces(JSON.stringify(call.args), 12))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(chunk({}, turn.finish ?? (turn.calls?.length ? "tool_calls" : "stop")));
  frames.push(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 } })}\n\n`,
  );
  frames.push("data: [DONE]\n\n");
  const calls = (turn.calls ?? []).map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
  const json = {
    ...base,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: turn.finish ?? (calls.length ? "tool_calls" : "stop"),
      },
    ],
    usage: { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 },
  };
  return { kind: "sse", frames, json };
}

/**
 * An OpenAI error response (`{"error": {...}}` with its status). A 429 carries `retry-after-ms`
 * as OpenAI's rate limiter sends it, which the AI SDK honours instead of its default backoff.
 */
export function openaiError(status: number, message: string, type = "invalid_request_error"): Reply {
  const headers: Record<string, string> = status === 429 ? { "retry-after-ms": "20" } : {};
  return { kind: "error", status, body: { error: { message, type, param: null, code: null } }, headers };
}

const event = (name: string, data: object) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** The frames of one Anthropic Messages streamed reply, up to (not including) its ending. */
function anthropicFrames(turn: ScriptedTurn, model: string): string[] {
  const frames = [
    event("message_start", {
      message: {
        id: "msg_01",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 850,
          output_tokens: 1,
          cache_read_input_tokens: 600,
          cache_creation_input_tokens: 0,
        },
      },
    }),
    event("ping", {}),
  ];
  let index = 0;
  if (turn.thinking) {
    frames.push(
      event("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    );
    for (const piece of pieces(turn.thinking.text, 10))
      frames.push(
        event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } }),
      );
    frames.push(
      event("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: turn.thinking.signature },
      }),
    );
    frames.push(event("content_block_stop", { index }));
    index++;
  }
  if (turn.text) {
    frames.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const piece of pieces(turn.text, 6))
      frames.push(event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
    frames.push(event("content_block_stop", { index }));
    index++;
  }
  for (const call of turn.calls ?? []) {
    frames.push(
      event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      }),
    );
    frames.push(
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } }),
    );
    for (const piece of pieces(JSON.stringify(call.args), 12))
      frames.push(
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }),
      );
    frames.push(event("content_block_stop", { index }));
    index++;
  }
  return frames;
}

/** One Anthropic Messages streamed reply. */
export function anthropicReply(turn: ScriptedTurn, model = "claude-sonnet-4-5"): Reply {
  const frames = anthropicFrames(turn, model);
  frames.push(
    event("message_delta", {
      delta: {
        stop_reason: turn.finish ?? (turn.calls?.length ? "tool_use" : "end_turn"),
        stop_sequence: null,
      },
      usage: { output_tokens: 42 },
    }),
  );
  frames.push(event("message_stop", {}));
  const content: object[] = [];
  if (turn.thinking)
    content.push({ type: "thinking", thinking: turn.thinking.text, signature: turn.thinking.signature });
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const call of turn.calls ?? [])
    content.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
  const json = {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: turn.finish ?? (turn.calls?.length ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: 850,
      output_tokens: 42,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 0,
    },
  };
  return { kind: "sse", frames, json };
}

/** An Anthropic reply that fails mid-stream with an `error` event. */
export function anthropicStreamError(turn: ScriptedTurn, type: string, message: string): Reply {
  return {
    kind: "sse",
    frames: [...anthropicFrames(turn, "claude-sonnet-4-5"), event("error", { error: { type, message } })],
  };
}

/** An Anthropic reply that streams `turn` and then stays open until the client goes away. */
export function anthropicHang(turn: ScriptedTurn): Reply {
  return { kind: "hang", frames: anthropicFrames(turn, "claude-sonnet-4-5") };
}
