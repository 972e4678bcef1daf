import { isOperationError, type Operations, type SearchOperations } from "@tackle/operations";
import { createPortableSearch, type PortableSearchOperations } from "./portable-search.js";

/**
 * The search a tool uses in `ops`: its native one when present, else the portable walk. A native
 * search that fails with `not_supported` before its first result (an adapter that found no
 * ripgrep only when asked) hands over to the portable walk for that call.
 */
export function searchFor(ops: PortableSearchOperations & Pick<Operations, "search">): {
  search: SearchOperations;
  engine: "native" | "portable";
} {
  const portable = createPortableSearch(ops);
  const native = ops.search;
  if (!native) return { search: portable, engine: "portable" };
  return {
    search: {
      grep: (request, options) =>
        orPortable(native.grep(request, options), () => portable.grep(request, options)),
      files: (request, options) =>
        orPortable(native.files(request, options), () => portable.files(request, options)),
    },
    engine: "native",
  };
}

async function* orPortable<T>(native: AsyncIterable<T>, portable: () => AsyncIterable<T>): AsyncGenerator<T> {
  let started = false;
  try {
    for await (const item of native) {
      started = true;
      yield item;
    }
  } catch (error) {
    if (started || !isOperationError(error, "not_supported")) throw error;
    yield* portable();
  }
}

/**
 * True when a relative POSIX path runs through a `.git` entry. The tools drop such paths from
 * any search, as a safety net: the adapters built on the shared ripgrep module of
 * @tackle/operations never return them, but a host's own `search` might (a plain `rg --glob '*'`
 * re-includes `.git`), and the portable walk never enters it.
 */
export function isInsideGit(relativePath: string): boolean {
  return relativePath === ".git" || relativePath.startsWith(".git/") || relativePath.includes("/.git/");
}
