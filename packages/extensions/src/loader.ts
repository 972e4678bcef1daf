import { stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Extension } from "./extension.js";

/** Where an extension comes from: an inline object, a `.ts`/`.js` file, or a package name. */
export type ExtensionSource = Extension | string;

const FILE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

/** True when `source` names a file rather than a package. */
function isFileSource(source: string): boolean {
  return (
    source.startsWith(".") ||
    path.isAbsolute(source) ||
    FILE_EXTENSIONS.some((extension) => source.endsWith(extension))
  );
}

/**
 * Loads one extension. Files (TypeScript included) and packages go through jiti with its module
 * cache off, so a reload sees the code as it is now, with no build step. The module's default
 * export (or the module itself) must be an extension object, or a setup function (named after
 * the file or package). Throws with a message that says what to fix.
 */
export async function loadExtensionSource(source: ExtensionSource, cwd: string): Promise<Extension> {
  if (typeof source !== "string") return checkExtension(source, "inline extension");
  let specifier = source;
  let fallbackName = source;
  if (isFileSource(source)) {
    specifier = path.resolve(cwd, source);
    fallbackName = path.basename(specifier).replace(/\.[cm]?[jt]s$/, "");
    const info = await stat(specifier).catch(() => undefined);
    if (info === undefined || !info.isFile()) throw new Error(`Extension file not found: ${specifier}`);
  }
  // Loaded on first use: jiti is large, and most hosts never load an extension from a file.
  const { createJiti } = await import("jiti");
  const jiti = createJiti(pathToFileURL(path.join(cwd, "extensions.js")).href, {
    moduleCache: false,
    fsCache: false,
    tryNative: false,
    interopDefault: true,
  });
  const loaded = await jiti.import<unknown>(specifier, { default: true });
  if (typeof loaded === "function") {
    return { name: fallbackName, setup: loaded as Extension["setup"] };
  }
  return checkExtension(loaded, source);
}

function checkExtension(value: unknown, origin: string): Extension {
  const candidate = value as Partial<Extension> | null;
  if (candidate === null || typeof candidate !== "object" || typeof candidate.setup !== "function") {
    throw new Error(
      `${origin} does not export an extension: export default defineExtension({ name, setup(api) { ... } }).`,
    );
  }
  if (typeof candidate.name !== "string" || candidate.name.trim() === "") {
    throw new Error(`${origin} exports an extension without a name: give defineExtension a name.`);
  }
  return candidate as Extension;
}
