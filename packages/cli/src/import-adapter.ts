import { UsageError } from "./usage-error.js";

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String((error as Error).message).includes(name)
  );
}

/**
 * Imports an optional package. When it is not installed, a usage error says which package to
 * install: the CLI itself runs without the packages it is not asked to use. `needer` names what
 * needs it ("The ssh environment", "--model google:...").
 */
export async function importOptional<T>(name: string, needer: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissingModule(error, name)) {
      throw new UsageError(`${needer} needs ${name}, which is not installed. Run: npm install ${name}`);
    }
    throw error;
  }
}

/** Imports an optional adapter package (see {@link importOptional}). */
export async function importAdapter<T>(name: string, kind: string): Promise<T> {
  return importOptional<T>(name, `The ${kind} environment`);
}
