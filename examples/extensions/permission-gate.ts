// Asks the person before a destructive shell command runs. Headless (no person), the default
// UI denies, so the command is blocked with a reason the model can act on.
import { defineExtension } from "@tackle/extensions";

/** Commands that destroy data or history; matched per command word, not as substrings of paths. */
const DESTRUCTIVE: { pattern: RegExp; why: string }[] = [
  { pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+/, why: "deletes files recursively or forcibly" },
  {
    pattern: /\bgit\s+(reset\s+--hard|clean\s+-[a-zA-Z]*f|push\s+(-f|--force))/,
    why: "discards git history or work",
  },
  { pattern: /\b(mkfs|dd\s+if=|shred)\b/, why: "overwrites a disk or file irrecoverably" },
  { pattern: /(^|[;&|]\s*)>\s*\S/, why: "truncates a file" },
];

/** Why `command` is destructive, or undefined. */
export function destructiveReason(command: string): string | undefined {
  return DESTRUCTIVE.find(({ pattern }) => pattern.test(command))?.why;
}

export default defineExtension({
  name: "permission-gate",
  setup(api) {
    api.on("tool_call", async (event, ctx) => {
      if (event.toolName !== "bash" || typeof event.input.command !== "string") return undefined;
      const command = event.input.command;
      const why = destructiveReason(command);
      if (why === undefined) return undefined;
      const allowed = await ctx.ui.confirm("Run a destructive command?", `${command}\n(it ${why})`, {
        signal: ctx.signal,
      });
      if (allowed) return undefined;
      return {
        block: true,
        reason: `Blocked: the user did not allow \`${command}\` (it ${why}). Ask the user, or use a non-destructive alternative.`,
      };
    });
  },
});
