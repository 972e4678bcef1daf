/**
 * The text editor's directory view: non-hidden files and directories two levels deep, sorted,
 * directories marked with `/`, at most `DEFAULTS.lsLimit` entries.
 */
import type { ExtensionContext, ResolvedPath } from "@tackle/extensions";
import { pathSyntax } from "@tackle/session";
import { DEFAULTS } from "../defaults.js";
import { sanitizeLines } from "../text/untrusted.js";

/** Levels below the directory a view lists. */
export const DIRECTORY_VIEW_DEPTH = 2;

/** Lists `dir` (resolved, a directory) for the text editor's view. */
export async function viewDirectory(
  ctx: ExtensionContext,
  dir: ResolvedPath,
  signal: AbortSignal | undefined,
) {
  const syntax = pathSyntax(ctx.operations.platform);
  const entries: string[] = [];
  let more = false;
  const walk = async (absolute: string, prefix: string, depth: number): Promise<void> => {
    const listed = await ctx.operations.readdir(absolute, { signal });
    listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listed) {
      if (entry.name.startsWith(".")) continue;
      if (entries.length >= DEFAULTS.lsLimit) {
        more = true;
        return;
      }
      const isDir = entry.type === "directory";
      entries.push(`${prefix}${entry.name}${isDir ? "/" : ""}`);
      if (isDir && depth < DIRECTORY_VIEW_DEPTH)
        await walk(syntax.join(absolute, entry.name), `${prefix}${entry.name}/`, depth + 1);
    }
  };
  await walk(dir.real, "", 1);
  const shown = sanitizeLines(entries).lines;
  const head = `Files and directories in ${dir.display} up to ${DIRECTORY_VIEW_DEPTH} levels deep, hidden ones left out:`;
  const tail = more ? `\n[Listing cut at ${DEFAULTS.lsLimit} entries; view a subdirectory to see more.]` : "";
  const text =
    shown.length > 0
      ? `${head}\n${shown.join("\n")}${tail}`
      : `${dir.display} is empty (or holds only hidden entries).`;
  return { content: [{ type: "text" as const, text }], details: { path: dir.display, entries } };
}
