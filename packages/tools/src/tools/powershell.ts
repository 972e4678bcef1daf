/**
 * The powershell tool: the same pipeline as bash, run by `pwsh -NoProfile -NonInteractive`,
 * with its own policy rules. Offered only where pwsh exists ({@link detectPowershell}).
 */
import { ToolError } from "@tackle/agent-core";
import type { ToolDefinition } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import {
  createShellToolDefinition,
  type ShellToolDetails,
  type ShellToolOptions,
  type ShellToolSchema,
} from "../shell/tool.js";
import { toolErrorCodes } from "../tool-error-codes.js";
import { hintFor } from "../tool-names.js";

/** What powershell fails with beyond the core's codes. */
const POWERSHELL_ERROR_CODES = toolErrorCodes("interactive_prompt");
/** The codes powershell declares (beside the core's). */
export type PowershellErrorCode = keyof typeof POWERSHELL_ERROR_CODES;

/** Options of the powershell tool. */
export type PowershellToolOptions = ShellToolOptions;

/** What {@link detectPowershell} found. */
export interface PowershellInfo {
  available: boolean;
  /** `$PSVersionTable.PSVersion`, e.g. `"7.4.6"`. */
  version?: string;
}

/** Per adapter object, like the mutation queue: two adapters with one id may reach different hosts. */
const detected = new WeakMap<object, Promise<PowershellInfo>>();

/**
 * Whether `pwsh` runs in the environment (cached per adapter object). Asks the environment
 * itself through `exec`, so it answers for a remote host or a container, not for this machine.
 */
export function detectPowershell(
  ops: Pick<Operations, "id" | "exec">,
  options: { cwd?: string; refresh?: boolean } = {},
): Promise<PowershellInfo> {
  const cached = detected.get(ops);
  if (cached && !options.refresh) return cached;
  const probe = (async (): Promise<PowershellInfo> => {
    const out: Uint8Array[] = [];
    try {
      const result = await ops.exec("$PSVersionTable.PSVersion.ToString()", {
        shell: "pwsh",
        cwd: options.cwd ?? "/",
        timeoutMs: 20_000,
        onChunk: (chunk) => {
          if (chunk.stream === "stdout") out.push(chunk.bytes);
        },
      });
      if (result.status !== "completed") return { available: false };
      return { available: true, version: Buffer.concat(out).toString("utf8").trim() };
    } catch {
      return { available: false };
    }
  })();
  detected.set(ops, probe);
  return probe;
}

/**
 * Creates the powershell tool. A call in an environment without pwsh fails with `not_supported`
 * before anything runs; hosts should check {@link detectPowershell} and offer the tool only
 * where it is available.
 */
export function createPowershellToolDefinition(
  options: PowershellToolOptions = {},
): ToolDefinition<ShellToolSchema, ShellToolDetails, PowershellErrorCode> {
  const definition = createShellToolDefinition("pwsh", options, async (ctx) => {
    const info = await detectPowershell(ctx.operations, { cwd: ctx.cwd });
    if (!info.available) {
      throw new ToolError(
        "not_supported",
        `PowerShell (pwsh) is not available in this environment (${ctx.operations.id}).${hintFor(ctx, [["bash", " Use the bash tool instead."]], " Tell the user; no other shell tool was given.")}`,
      );
    }
  });
  return { ...definition, errorCodes: POWERSHELL_ERROR_CODES };
}
