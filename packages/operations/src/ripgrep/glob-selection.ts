import { compileGlob, type GlobMatcher } from "./glob.js";

/** Name of the file type a glob becomes (`--type-add NAME:GLOB --type NAME`). */
export const GLOB_TYPE_NAME = "tackleglob";

/** How one request's glob reaches ripgrep. */
export interface GlobSelection {
  /** Flags for rg. */
  args: string[];
  /** Keeps a request-relative path; rg cannot apply every glob itself (see {@link globSelection}). */
  keeps: GlobMatcher;
}

const KEEP_ALL: GlobMatcher = () => true;

/** A last path segment made only of these is read the same by ripgrep's globs and picomatch. */
const PLAIN_SEGMENT = /^[\w.*?-]+$/;

/**
 * Turns a search glob into rg flags plus a path filter so the glob only ever narrows a search:
 * ignore rules apply whatever the glob says (unless `includeIgnored`). `rg --glob G` would not
 * do: a `--glob` is an override that takes an ignored file matching it, and walks into an
 * ignored directory whose name matches (`--glob '*'` lists node_modules/ and .git/). So:
 * - `!G` (exclude) is passed as `--glob !G`: a negated override only removes, so it is safe;
 * - `G` without `/` becomes a file type (`--type-add tackleglob:G --type tackleglob`): types
 *   match the file name only and never override ignore rules, which is exactly the contract;
 * - `G` with `/` (or with `:`, which a type definition cannot hold) is matched here against each
 *   result path with {@link compileGlob}; when its last segment is plain (`src/**\/*.ts`), that
 *   segment is also passed as a type so rg reads only candidate files.
 * A request for one file searches it whatever the glob says, as ripgrep does for a file it is
 * given by name: then no glob applies.
 */
export function globSelection(glob: string | undefined, target: "directory" | "file"): GlobSelection {
  const trimmed = anyDepthPrefixDropped(glob?.trim() ?? "");
  if (trimmed === "" || target === "file") return { args: [], keeps: KEEP_ALL };
  if (trimmed.startsWith("!")) return { args: ["--glob", trimmed], keeps: KEEP_ALL };
  if (!trimmed.includes("/") && !trimmed.includes(":")) return { args: typeArgs(trimmed), keeps: KEEP_ALL };
  const last = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  const narrow = PLAIN_SEGMENT.test(last) && !last.includes("**");
  return { args: narrow ? typeArgs(last) : [], keeps: compileGlob(trimmed) };
}

/**
 * `**\/*.ts` means what `*.ts` means (a name at any depth; `**` also matches no directory), so
 * it takes the same path: a file type rg applies while it walks, instead of a matcher run on
 * every path rg lists.
 */
function anyDepthPrefixDropped(glob: string): string {
  let rest = glob;
  while (rest.startsWith("**/")) rest = rest.slice(3);
  return rest !== "" && !rest.includes("/") && !rest.includes("**") ? rest : glob;
}

function typeArgs(glob: string): string[] {
  return ["--type-add", `${GLOB_TYPE_NAME}:${glob}`, "--type", GLOB_TYPE_NAME];
}
