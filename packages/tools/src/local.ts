/**
 * `@tackle/tools/local`: this machine as the environment, in one line. The only module of the
 * package that imports `@tackle/operations-local` (an optional peer dependency), so an SSH- or
 * Docker-only install never needs the local adapter or its ripgrep binary.
 */
import { statSync } from "node:fs";
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
 * disposes the adapter too), rooted at `cwd`. Throws at once when `cwd` is not an existing
 * directory (every call would otherwise fail later with "Directory not found").
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
  const directory = absolute(cwd ?? process.cwd());
  if (typeof directory === "string") checkDirectory(directory, cwd);
  return createToolContext({
    ...rest,
    ...(rest.roots ? { roots: rest.roots.map(absolute) } : {}),
    cwd: directory,
    operations: createLocalOperations(local),
    disposeOperations: true,
  });
}

/** Throws unless `directory` exists and is a directory, naming what was given and what to do. */
function checkDirectory(directory: string, given: string | undefined): void {
  const shown = given === undefined || given === directory ? directory : `${given} (${directory})`;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? String(error)})`;
    throw new Error(
      `createLocalToolContext: cwd ${shown} ${why}. Create it first, or pass an existing directory.`,
    );
  }
  if (!isDirectory) {
    throw new Error(
      `createLocalToolContext: cwd ${shown} is not a directory. Pass the directory to work in.`,
    );
  }
}
