/**
 * `@tackle/tools/local`: this machine as the environment, in one line. The only module of the
 * package that imports `@tackle/operations-local` (an optional peer dependency), so an SSH- or
 * Docker-only install never needs the local adapter or its ripgrep binary.
 */
import { resolve } from "node:path";
import { createLocalOperations, type LocalOperationsOptions } from "@tackle/operations-local";
import {
  createToolContext,
  type ToolContext,
  type ToolContextOptions,
} from "./context/create-tool-context.js";

/** Options of {@link createLocalToolContext}: those of `createToolContext`, minus the environment. */
export interface LocalToolContextOptions
  extends Omit<ToolContextOptions, "cwd" | "operations" | "disposeOperations"> {
  /** Working directory. Default `process.cwd()`; a relative one is taken from `process.cwd()`. */
  cwd?: string;
  /** Options of the local adapter the context makes (and disposes with itself). */
  local?: LocalOperationsOptions;
}

/**
 * A tool context on this machine: a fresh local adapter, owned by the context (its `dispose()`
 * disposes the adapter too), rooted at `cwd`.
 *
 * @example
 * ```ts
 * import { createCodingTools } from "@tackle/tools";
 * import { createLocalToolContext } from "@tackle/tools/local";
 *
 * const context = createLocalToolContext({ cwd: "/home/me/project" });
 * const tools = createCodingTools({ context });
 * // ... run the agent with Object.values(tools) ...
 * await context.dispose();
 * ```
 */
export function createLocalToolContext(options: LocalToolContextOptions = {}): ToolContext {
  const { cwd, local, ...rest } = options;
  // Relative paths are taken from this process's directory (non-strings are left to be refused).
  const absolute = <T>(path: T) => (typeof path === "string" ? resolve(path) : path);
  return createToolContext({
    ...rest,
    ...(rest.roots ? { roots: rest.roots.map(absolute) } : {}),
    cwd: absolute(cwd ?? process.cwd()),
    operations: createLocalOperations(local),
    disposeOperations: true,
  });
}
