/**
 * The last check before a write, run inside the file mutation: the real path is resolved again
 * so a link swapped in since the policy check (a parent directory replaced by a link to /etc,
 * say) is caught. What remains is the gap between this check and the adapter's rename: see the
 * README ("Path policy and links").
 */
import { ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ResolvedPath } from "@tackle/extensions";
import type { WriteFileOptions } from "@tackle/operations";

/**
 * `writeFile` options for a checked target: `within` its workspace root when it lies inside one,
 * so the adapter keeps the write there even if a directory is swapped for a link after this
 * check (see `WriteFileOptions.within`). A path the policy allowed outside the workspace has no
 * root to stay in.
 */
export function withinRoot(target: ResolvedPath, signal: AbortSignal | undefined): WriteFileOptions {
  return { ...(signal ? { signal } : {}), ...(target.root === undefined ? {} : { within: target.root }) };
}

/**
 * Re-resolves `resolved.absolute` for writing and fails with `outside_workspace` when its real
 * path moved since the first check (or policy now denies it). Returns the fresh resolution.
 */
export async function recheckWriteTarget(
  ctx: Pick<ExtensionContext, "workspace">,
  resolved: ResolvedPath,
  signal?: AbortSignal,
): Promise<ResolvedPath> {
  const again = await ctx.workspace.resolve(resolved.absolute, "write", { signal });
  if (again.real !== resolved.real) {
    throw new ToolError(
      "outside_workspace",
      `${resolved.display} now resolves to ${again.real} instead of ${resolved.real} (a link changed). Nothing was written; check the path and try again.`,
      { details: { path: resolved.absolute, before: resolved.real, after: again.real } },
    );
  }
  return again;
}
