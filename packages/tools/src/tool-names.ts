/**
 * Which tools the model has in this call, for hints that name one ("Use ls to list it"): a model
 * told to use a tool it was not given tries it anyway. `createTools` (and the set factories on
 * it) show each call the names of its set under {@link TOOL_NAMES_SERVICE}; a host assembling
 * its own set can put them in `services` the same way. Without them (a definition used on its
 * own) every tool counts as present.
 */
import type { ExtensionContext } from "@tackle/extensions";

/** Service name under which `ExtensionContext.services` holds the names of the call's tool set. */
export const TOOL_NAMES_SERVICE = "tools.names";

/** Whether the model has the tool `name` in this call (true when the set is not known). */
export function hasTool(ctx: ExtensionContext, name: string): boolean {
  const names = ctx.services?.[TOOL_NAMES_SERVICE];
  return !Array.isArray(names) || names.includes(name);
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

/**
 * `ctx` seen with `names` as its tool set: a view (like the per-call signal) that answers
 * `services` with the names added and reads everything else from `ctx`. Names a host already
 * put there win.
 */
export function withToolNames(ctx: ExtensionContext, names: readonly string[]): ExtensionContext {
  if (Array.isArray(ctx.services?.[TOOL_NAMES_SERVICE])) return ctx;
  const services = { ...ctx.services, [TOOL_NAMES_SERVICE]: names };
  return new Proxy(ctx, {
    get: (target, property, receiver) =>
      property === "services" ? services : Reflect.get(target, property, receiver),
  });
}
