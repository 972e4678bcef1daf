/**
 * TypeBox as Tackle validates with it (`@tackle/agent-core/typebox`): the `Type` builders and the
 * registries of one bundled copy of TypeBox's runtime, the copy `invokeTool` checks arguments
 * with. Importing it costs one module instead of TypeBox's 249.
 *
 * Schemas built with your own `@sinclair/typebox` work as they are (TypeBox marks schemas with
 * `Symbol.for` keys, which every copy shares). Custom string formats and custom kinds are looked
 * up in the registries of the copy that validates: register them here.
 *
 * @example
 * ```ts
 * import { FormatRegistry, Type } from "@tackle/agent-core/typebox";
 *
 * FormatRegistry.Set("ticket-id", (value) => /^[A-Z]+-\d+$/.test(value));
 * const parameters = Type.Object({ ticket: Type.String({ format: "ticket-id" }) });
 * ```
 *
 * @module
 */
export type { Static, TSchema } from "@sinclair/typebox";
export { FormatRegistry, Kind, Type, TypeRegistry } from "./typebox-runtime.js";
