// Blocks writes to secrets and to git's internals, wherever the model points: `./.env`,
// `config/../.env`, `.git/config`, `.env.local` and a link to `.env` are all caught after path
// resolution (the real path is checked, not the name the model used). Shell commands that write
// these files are the bash tool's command policy's job, not this extension's.
import { defineExtension } from "@tackle/extensions";

const WRITING_TOOLS = new Set(["write", "edit"]);

/** Why writing `path` (workspace-relative or real, POSIX separators) is refused, or undefined. */
export function protectedReason(path: string): string | undefined {
  const parts = path.split("/");
  const name = parts.at(-1) ?? "";
  if (name === ".env" || name.startsWith(".env.")) return "it holds secrets";
  if (parts.includes(".git")) return "it is git's internal state";
  return undefined;
}

export default defineExtension({
  name: "protected-paths",
  setup(api) {
    api.on("tool_call", async (event, ctx) => {
      if (!WRITING_TOOLS.has(event.toolName) || typeof event.input.path !== "string") return undefined;
      // Resolve like the tools do, so `a/../.env` cannot slip past. A path the policy refuses
      // anyway is left to the tool, which reports it with the resolved path.
      const resolved = await ctx.workspace.resolve(event.input.path, "write").catch(() => undefined);
      if (resolved === undefined) return undefined;
      const why = protectedReason(resolved.display) ?? protectedReason(resolved.real);
      if (why === undefined) return undefined;
      return {
        block: true,
        reason: `Blocked: ${resolved.display} is protected (${why}). Do not write it; tell the user what should change.`,
      };
    });
  },
});
