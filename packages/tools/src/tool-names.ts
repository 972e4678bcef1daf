/**
 * Which tools the model has in this call, for hints that name one ("Use ls to list it"): a model
 * told to use a tool it was not given tries it anyway. `createTools` (and the set factories on
 * it) give each call the names of its set in `ctx.call.toolNames`; a host assembling its own set
 * passes them to `wrapToolDefinition(definition, factory, { toolNames })`. Without them (a
 * definition used on its own) every tool counts as present.
 */
import type { ExtensionContext } from "@tackle/extensions";

/** Whether the model has the tool `name` in this call (true when the set is not known). */
export function hasTool(ctx: ExtensionContext, name: string): boolean {
  const names = ctx.call?.toolNames;
  return names === undefined || names.includes(name);
}

/** The first hint whose tool the model has, or `fallback` when it has none of them. */
export function hintFor(
  ctx: ExtensionContext,
  choices: ReadonlyArray<readonly [tool: string, hint: string]>,
  fallback = "",
): string {
  return choices.find(([tool]) => hasTool(ctx, tool))?.[1] ?? fallback;
}

/** The shell tool the model has in this call (bash before powershell), or `undefined` for none. */
export function shellToolOf(ctx: ExtensionContext): "bash" | "powershell" | undefined {
  if (hasTool(ctx, "bash")) return "bash";
  return hasTool(ctx, "powershell") ? "powershell" : undefined;
}
