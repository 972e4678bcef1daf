import { randomBytes } from "node:crypto";
import type { AnyAgentTool, AuditSink, RequestedBy, ToolCallAuditOptions } from "@tackle/agent-core";
import type { AnyToolDefinition } from "@tackle/extensions";
import { definitionOf } from "@tackle/extensions";
import type { JsonlAuditSink } from "@tackle/session/audit";
import {
  ALL_TOOL_NAMES,
  createToolContext,
  createTools,
  READ_ONLY_TOOL_NAMES,
  type ToolContext,
  type ToolName,
} from "@tackle/tools";
import { detectPowershell } from "@tackle/tools/shell";
import { openAuditSink } from "./audit-file.js";
import { parseEnvUrl } from "./env-url.js";
import { type EnvironmentOptions, type OpenEnvironment, openEnvironment } from "./environment.js";
import { UsageError } from "./usage-error.js";

/** The tools of one CLI invocation, bound to one environment and one context. */
export interface CliSession {
  env: OpenEnvironment;
  context: ToolContext;
  definitions: Map<string, AnyToolDefinition>;
  tools: Map<string, AnyAgentTool>;
  /** Where the session's calls are recorded (absent with `--audit off`). */
  audit?: JsonlAuditSink;
  /** Ends the session's background jobs (unless keepAlive), then disposes the environment; artifacts are removed when `dropArtifacts`. */
  close(options?: { dropArtifacts?: boolean }): Promise<void>;
}

/** Checks `--tools a,b` against the tool names; unknown names are a usage error listing the valid ones. */
export function parseToolNames(list: string | undefined, fallback: readonly ToolName[]): ToolName[] {
  if (list === undefined) return [...fallback];
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) assertToolName(name);
  if (names.length === 0)
    throw new UsageError(`--tools names no tool. Use a list such as --tools read,grep,ls.`);
  return names as ToolName[];
}

/**
 * The tools a session serves when `--tools` names none: every tool but `apply_patch`, which does
 * what edit and write do in the V4A patch format (name it in `--tools`; `tackle run --model` gives
 * it to OpenAI models in its native tool format).
 */
export const DEFAULT_TOOL_NAMES: readonly ToolName[] = ALL_TOOL_NAMES.filter(
  (name) => name !== "apply_patch",
);

/**
 * The tools `--tools` and `--read-only` choose: the listed ones (default
 * {@link DEFAULT_TOOL_NAMES}, or the read-only ones with `--read-only`); a tool that writes in a
 * `--read-only` list is a usage error.
 */
export function chooseToolNames(values: {
  tools?: string | undefined;
  "read-only"?: boolean | undefined;
}): ToolName[] {
  const readOnly = values["read-only"] === true;
  const names = parseToolNames(values.tools, readOnly ? READ_ONLY_TOOL_NAMES : DEFAULT_TOOL_NAMES);
  if (readOnly) {
    const writers = names.filter((name) => !(READ_ONLY_TOOL_NAMES as readonly string[]).includes(name));
    if (writers.length > 0)
      throw new UsageError(`--read-only cannot serve ${writers.join(", ")}. Drop them from --tools.`);
  }
  return names;
}

/**
 * Drops powershell from a session whose environment cannot run it, unless the user asked for it
 * by name (`--tools powershell`).
 */
export async function dropUnavailablePowershell(session: CliSession, askedByName: boolean): Promise<void> {
  if (askedByName || !session.tools.has("powershell")) return;
  const pwsh = await detectPowershell(session.env.operations, { cwd: session.env.cwd });
  if (!pwsh.available) {
    session.definitions.delete("powershell");
    session.tools.delete("powershell");
  }
}

/** Throws a {@link UsageError} naming the valid tools when `name` is not one. */
export function assertToolName(name: string): asserts name is ToolName {
  if (!(ALL_TOOL_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`Unknown tool "${name}". Available tools: ${ALL_TOOL_NAMES.join(", ")}.`, {
      code: "tool_not_found",
    });
  }
}

/**
 * Opens the environment named by `envUrl` and builds the named tools on one shared context (a
 * shell tool brings `jobs`, which its background results point to).
 */
export async function openCliSession(
  envUrl: string | undefined,
  names: readonly ToolName[],
  options: EnvironmentOptions,
  auditFile?: string,
): Promise<CliSession> {
  const spec = parseEnvUrl(envUrl);
  // Opened first: a bad --audit path is a usage error before any connection is made.
  const audit = auditFile === undefined ? undefined : openAuditSink(auditFile);
  let env: OpenEnvironment;
  try {
    env = await openEnvironment(spec, options);
  } catch (error) {
    await audit?.close();
    throw error;
  }
  const context = createToolContext({
    cwd: env.cwd,
    operations: env.operations,
    ...(audit ? { audit } : {}),
  });
  // --sandbox: every command of the shell tools runs in the environment's sandbox, or fails.
  const shell = options.sandbox !== undefined ? { sandbox: options.sandbox } : undefined;
  const toolOptions = shell ? { tools: { bash: shell, powershell: shell } } : {};
  const tools = new Map<string, AnyAgentTool>(
    Object.entries(createTools({ context, names, ...toolOptions })),
  );
  const definitions = new Map<string, AnyToolDefinition>();
  for (const [name, tool] of tools) definitions.set(name, definitionOf(tool) as AnyToolDefinition);
  return {
    env,
    context,
    definitions,
    tools,
    ...(audit ? { audit } : {}),
    async close({ dropArtifacts = false } = {}) {
      await context.dispose({ keepArtifacts: !dropArtifacts }).catch(() => {});
      await env.dispose();
      await audit?.close();
    },
  };
}

/** The audit options of calls made in `session` (none with `--audit off`). */
export function auditOptionsOf(
  session: { audit?: AuditSink | undefined; context: ToolContext },
  requestedBy: RequestedBy,
): { audit?: ToolCallAuditOptions } {
  if (!session.audit) return {};
  return { audit: { sink: session.audit, requestedBy, sessionId: session.context.session.id } };
}

/** A call id unique across runs (audit records are keyed by it): `tool-<time>-<random>`. */
export function newCallId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
}
