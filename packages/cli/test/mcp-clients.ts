// Real MCP SDK clients of both protocol eras, each spawning the built `tackle mcp` over stdio:
// the SDK 1.x client (2025-11-25, `initialize`) and the SDK 2 client, in its default legacy mode
// or pinned to 2026-07-28 (`server/discover`, no `initialize`).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Transport2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { BIN, killIfRunning } from "./helpers.js";

/** The two revisions `tackle mcp` is tested on, each with the SDK client that speaks it. */
export const ERAS = [
  { name: "2025-11-25 (SDK 1 client)", client: "sdk1", version: "2025-11-25" },
  { name: "2026-07-28 (SDK 2 client)", client: "sdk2-modern", version: "2026-07-28" },
] as const;

export type ClientKind = "sdk1" | "sdk2-legacy" | "sdk2-modern";

type Content = { type: string; text?: string };
/** A `tools/call` result as both clients return it. */
export interface CallResult {
  content: Content[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
/** A listed tool as both clients return it. */
export interface ListedTool {
  name: string;
  inputSchema: { type: string; properties?: Record<string, unknown> };
  outputSchema?: { type: string; properties?: Record<string, unknown>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  _meta?: Record<string, unknown>;
}
interface CallOptions {
  onprogress?: (progress: { progress: number; message?: string }) => void;
  signal?: AbortSignal;
}

/** One connected client, whichever SDK it is. */
export interface McpTestClient {
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
  instructions(): string | undefined;
  /** The revision the connection negotiated. */
  protocolVersion(): string | undefined;
  stderr(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Offer MCP roots (these directories) to the server. */
  roots?: string[];
  /** SDK 2 only: the revisions the client offers. */
  supportedProtocolVersions?: string[];
}

const open: { close: () => Promise<void>; pid: () => number | null | undefined }[] = [];

/** Closes every client this module connected and makes sure each server process is gone. */
export async function closeClients(): Promise<void> {
  for (const entry of open.splice(0)) {
    const pid = entry.pid();
    await entry.close().catch(() => {});
    if (pid) killIfRunning(pid);
  }
}

const rootsOf = (roots: string[]) => ({
  roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) })),
});
const info = { name: "tackle-test", version: "1.0.0" };

/** Spawns `tackle mcp ...args` and connects `kind` to it. */
export async function connectClient(
  kind: ClientKind,
  args: string[],
  options: ConnectOptions = {},
): Promise<McpTestClient> {
  const params = { command: process.execPath, args: [BIN, "mcp", ...args], stderr: "pipe" as const };
  let stderr = "";
  const capabilities = options.roots ? { roots: {} } : {};
  if (kind === "sdk1") {
    const client = new Client1(info, { capabilities });
    if (options.roots) {
      const roots = rootsOf(options.roots);
      client.setRequestHandler(ListRootsRequestSchema, async () => roots);
    }
    const transport = new Transport1(params);
    let negotiated: string | undefined;
    // The 1.x client hands the negotiated revision to the transport (HTTP sends it as a header).
    (transport as { setProtocolVersion?: (version: string) => void }).setProtocolVersion = (version) => {
      negotiated = version;
    };
    transport.stderr?.on("data", (chunk) => (stderr += chunk));
    await client.connect(transport);
    open.push({ close: () => client.close(), pid: () => transport.pid });
    return {
      listTools: async () => (await client.listTools()).tools as ListedTool[],
      callTool: async (name, args, call = {}) =>
        (await client.callTool({ name, arguments: args }, undefined, call)) as CallResult,
      instructions: () => client.getInstructions(),
      protocolVersion: () => negotiated,
      stderr: () => stderr,
      close: () => client.close(),
    };
  }
  const client = new Client2(info, {
    capabilities,
    ...(kind === "sdk2-modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    ...(options.supportedProtocolVersions
      ? { supportedProtocolVersions: options.supportedProtocolVersions }
      : {}),
  });
  if (options.roots) {
    const roots = rootsOf(options.roots);
    client.setRequestHandler("roots/list", async () => roots);
  }
  const transport = new Transport2(params);
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  await client.connect(transport);
  open.push({ close: () => client.close(), pid: () => transport.pid });
  return {
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    callTool: async (name, args, call = {}) =>
      (await client.callTool({ name, arguments: args }, call)) as CallResult,
    instructions: () => client.getInstructions(),
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** The text parts of a result, joined. */
export function textOf(result: CallResult): string {
  return result.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}
