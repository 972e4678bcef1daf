/**
 * The portable search as a native one: local operations whose `search` is
 * `createPortableSearch`, run through the Operations conformance suite of @tackle/operations
 * (its search checks use that package's own fixture tree: nested repository, .gitignore rules,
 * unicode paths, links, flag-like patterns).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createLocalOperations } from "@tackle/operations-local";
import { createPortableSearch } from "../src/search/portable-search.js";

describeOperationsConformance(
  "local with the portable search",
  async () => {
    const local = createLocalOperations({ rgPath: false });
    const root = await mkdtemp(join(tmpdir(), "tackle-portable-conf-"));
    return {
      ops: { ...local, search: createPortableSearch(local) },
      root,
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  },
  { bigFileBytes: 1024 * 1024, shells: ["sh"] },
);
