// The parts of TypeBox's runtime Tackle uses. The build (scripts/bundle-typebox.mjs) replaces
// this file's output with one bundled module: TypeBox ships 249 ES modules, and a process
// importing them pays about 13 MB more peak memory than for the same code in one file (Node's
// loader allocates per module). Only the values are bundled; types still come from
// @sinclair/typebox. Import from here (or the public `./typebox.js`), never from
// @sinclair/typebox at run time, so a process holds one TypeBox and one set of registries.
export { FormatRegistry, Kind, Type, TypeRegistry } from "@sinclair/typebox";
export { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
export { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
export { Value } from "@sinclair/typebox/value";
