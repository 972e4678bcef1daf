import { fileURLToPath } from "node:url";
import { type CallToolResult, Server, type Tool } from "@modelcontextprotocol/server";
import {
  type AnyAgentTool,
  type AuditSink,
  errorCodesOf,
  errorOutcome,
  invokeTool,
  type ToolOutcome,
} from "@tackle/agent-core";
import type { TSchema } from "@tackle/agent-core/typebox";
import { definitionOf, toJsonSchema } from "@tackle/extensions";
import type { ToolContext } from "@tackle/tools";
import { MCP_OUTPUT_SCHEMAS, structuredContentOf } from "./mcp-output.js";
import { auditOptionsOf } from "./session.js";

/** What {@link createMcpServer} serves: tools by name and the context they were made on. */
export interface McpSession {
  /** The tools' shared context (its workspace roots follow the client's MCP roots, for the local adapter). */
  context: ToolContext;
  /** The tools by the names the client calls them (annotations come from their definitions). */
  tools: ReadonlyMap<string, AnyAgentTool>;
  /** Where each call is recorded (`requestedBy: "model"`); none when absent. */
  audit?: AuditSink | undefined;
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  name?: string;
  version: string;
  /** Writes diagnostics somewhere other than stdout (stdout carries only protocol). */
  log?: (message: string) => void;
  /**
   * The `outputSchema` of each tool by name, whose results then carry `structuredContent` (the
   * result's `details` picked by the schema). Default `MCP_OUTPUT_SCHEMAS`, which describes
   * Tackle's own tools: a host serving other tools under those names passes its own, or `{}`.
   */
  outputSchemas?: Readonly<Record<string, TSchema>>;
}

/** Key of the error code in an MCP tool result's `_meta` (a vendor prefix, as the spec asks). */
export const MCP_ERROR_CODE_KEY = "tackle/errorCode";

/**
 * Key, in each listed tool's `_meta`, of the codes its results may carry with what each means
 * (the core's and the tool's own, see `errorCodesOf`): a client knows every code before a call.
 */
export const MCP_ERROR_CODES_KEY = "tackle/errorCodes";

/**
 * Maps a tool outcome to MCP content: text and images, `isError` kept, and an error's code in
 * `_meta["tackle/errorCode"]` so a client branches on it instead of parsing the text. With the
 * tool's output schema, the outcome's `details` picked by it become `structuredContent` (also on
 * a failure that carries them, such as a command's non-zero exit); the text stays what the model
 * reads.
 */
export function toMcpResult<TErrorCode extends string>(
  outcome: ToolOutcome<unknown, TErrorCode>,
  outputSchema?: TSchema,
): CallToolResult {
  const result: CallToolResult = {
    content: outcome.content.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "image" as const, data: part.data, mimeType: part.mimeType },
    ),
    isError: outcome.isError,
  };
  if (outputSchema !== undefined) {
    const structured = structuredContentOf(outputSchema, outcome.details);
    if (structured !== undefined) result.structuredContent = structured;
  }
  if (outcome.isError && outcome.errorCode !== undefined) {
    result._meta = { [MCP_ERROR_CODE_KEY]: outcome.errorCode };
  }
  return result;
}

function lastLine(outcome: { content: ToolOutcome["content"] }): string | undefined {
  const texts = outcome.content.filter((part) => part.type === "text");
  const text = texts[texts.length - 1];
  if (!text) return undefined;
  const lines = text.text.trimEnd().split("\n");
  return lines[lines.length - 1]?.slice(0, 200);
}

/**
 * An MCP server (official SDK v2, low-level `Server`) that lists the session's tools with their
 * JSON Schemas, annotations and output schemas, and runs calls through `invokeTool`: progress
 * notifications from streaming tool updates, client cancellation reaching the tool's
 * AbortSignal, and the workspace roots following the client's MCP roots when it offers them
 * (local environment, 2025-era connections: roots are deprecated in 2026-07-28, which has no
 * server-to-client request to ask for them).
 *
 * Serve it with the SDK's entries, which negotiate the protocol revision per connection:
 * `serveStdio(() => createMcpServer(session, options))` from `@modelcontextprotocol/server/stdio`
 * serves 2026-07-28 clients and 2025-era ones (`initialize`) alike.
 */
export function createMcpServer(session: McpSession, options: McpServerOptions): Server {
  const log = options.log ?? (() => {});
  const outputSchemas = options.outputSchemas ?? MCP_OUTPUT_SCHEMAS;
  const outputSchemaOf = (name: string): TSchema | undefined =>
    Object.hasOwn(outputSchemas, name) ? outputSchemas[name] : undefined;
  const server = new Server(
    { name: options.name ?? "tackle", version: options.version },
    {
      capabilities: { tools: {} },
      // Names only the tools served: a model told of a tool it cannot call tries it anyway.
      instructions: `Coding tools: ${[...session.tools.keys()].join(", ")}.`,
    },
  );

  server.setRequestHandler("tools/list", async () => ({
    tools: [...session.tools].map(([name, tool]): Tool => {
      const outputSchema = outputSchemaOf(name);
      return {
        name,
        title: tool.label,
        description: tool.description,
        inputSchema: toJsonSchema(tool.parameters) as Tool["inputSchema"],
        ...(outputSchema ? { outputSchema: toJsonSchema(outputSchema) as Tool["outputSchema"] } : {}),
        annotations: { title: tool.label, ...definitionOf(tool)?.annotations },
        _meta: { [MCP_ERROR_CODES_KEY]: errorCodesOf(tool) },
      };
    }),
  }));

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const tool = session.tools.get(request.params.name);
    if (!tool) {
      const names = [...session.tools.keys()].join(", ");
      return toMcpResult(
        errorOutcome("tool_not_found", `Unknown tool "${request.params.name}". Available tools: ${names}.`),
      );
    }
    const progressToken = request.params._meta?.progressToken;
    let progress = 0;
    const outcome = await invokeTool(tool, request.params.arguments ?? {}, {
      signal: ctx.mcpReq.signal,
      toolCallId: String(ctx.mcpReq.id),
      ...auditOptionsOf(session, "model"),
      onUpdate: (partial) => {
        if (progressToken === undefined) return;
        progress++;
        const message = lastLine(partial);
        ctx.mcpReq
          .notify({
            method: "notifications/progress",
            params: { progressToken, progress, ...(message ? { message } : {}) },
          })
          .catch((error: unknown) => log(`progress notification failed: ${String(error)}`));
      },
    });
    return toMcpResult(outcome, outputSchemaOf(request.params.name));
  });

  const syncRoots = async () => {
    if (!server.getClientCapabilities()?.roots || session.context.operations.id !== "local") return;
    try {
      const { roots } = await server.listRoots();
      const paths = roots
        .filter((root) => root.uri.startsWith("file://"))
        .map((root) => fileURLToPath(root.uri));
      if (paths.length > 0) {
        session.context.workspace.setRoots(paths);
        log(`workspace roots: ${paths.join(", ")}`);
      }
    } catch (error) {
      log(`could not list the client's roots: ${String(error)}`);
    }
  };
  server.oninitialized = () => {
    void syncRoots();
  };
  server.setNotificationHandler("notifications/roots/list_changed", async () => {
    await syncRoots();
  });
  return server;
}
