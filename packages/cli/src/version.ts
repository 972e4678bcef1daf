import { createRequire } from "node:module";

let version: string | undefined;

/**
 * The CLI's version, from its package.json, found by the package's own name: the same answer
 * from `src/`, from tsc's `dist/` and from a chunk of the bundled binary (`dist/bin-chunks/`).
 * Read on first use: resolving it costs a start-up that does not print it (`tackle tool`).
 */
export function cliVersion(): string {
  version ??= (createRequire(import.meta.url)("@tackle/cli/package.json") as { version: string }).version;
  return version;
}
