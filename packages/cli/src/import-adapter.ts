import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "./usage-error.js";

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String((error as Error).message).includes(name)
  );
}

/** The entry file of `name` as installed below `dir` (or a parent's `node_modules`), if it is. */
function resolveFrom(dir: string, name: string): string | undefined {
  try {
    return createRequire(path.join(dir, "package.json")).resolve(name);
  } catch {
    return undefined;
  }
}

/**
 * Imports an optional package. When it is not installed, a usage error says which package to
 * install: the CLI itself runs without the packages it is not asked to use. `needer` names what
 * needs it ("The ssh environment", "--model google:...").
 *
 * The package is looked up next to the CLI first, then from `from` (default: the directory
 * `tackle` runs in). A CLI installed with `npm install -g` or run by `npx` sees nothing but its
 * own folder, so without the second lookup the `npm install` the error asks for (run in the
 * user's directory) would never be found and the error would repeat.
 */
export async function importOptional<T>(name: string, needer: string, from = process.cwd()): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (!isMissingModule(error, name)) throw error;
  }
  const local = resolveFrom(from, name);
  if (local) return (await import(pathToFileURL(local).href)) as T;
  throw new UsageError(`${needer} needs ${name}, which is not installed. Run: npm install ${name}`);
}

/** Imports an optional adapter package (see {@link importOptional}). */
export async function importAdapter<T>(name: string, kind: string): Promise<T> {
  return importOptional<T>(name, `The ${kind} environment`);
}
