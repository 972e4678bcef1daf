/**
 * `apply_patch <<'EOF'` sent to the bash tool, as Codex-trained models send patches: the patch is
 * applied by the patch engine (never run as a command), relative to the call's cwd and a leading
 * `cd <dir> &&`. Every guarantee of the apply_patch tool holds; the command policy has nothing to
 * judge, since no process starts, and the path policy judges every file.
 */
import type { ExtensionContext } from "@tackle/extensions";
import { pathSyntax } from "@tackle/session";
import { DEFAULTS } from "../defaults.js";
import { type ApplyPatchDetails, applyPatch } from "./apply.js";
import type { PatchCommand } from "./heredoc.js";
import { formatPatchSummary } from "./summary.js";

/** Applies a recognised patch command from a shell call whose working directory is `cwd` (absolute). */
export async function runPatchCommand(
  ctx: ExtensionContext,
  command: PatchCommand,
  cwd: string,
  options: { toolCallId: string; signal?: AbortSignal | undefined; maxLines?: number; maxBytes?: number },
): Promise<{ text: string; details: ApplyPatchDetails }> {
  const baseDir =
    command.cd === undefined ? cwd : pathSyntax(ctx.operations.platform).resolve(cwd, command.cd);
  const details = await applyPatch(ctx, command.patch, {
    toolCallId: options.toolCallId,
    signal: options.signal,
    source: "file",
    baseDir,
  });
  const text = formatPatchSummary(details, {
    maxLines: options.maxLines ?? DEFAULTS.maxLines,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
  });
  return { text, details };
}
