/**
 * `Operations.listTree` for an environment reached through a POSIX shell (SSH, a container): one
 * run of {@link TREE_LISTING_SCRIPT}, its output read by a {@link TreeListingReader}, and the
 * listing put in the order (and cut at the bound) of the local adapter by {@link treeListingOf}.
 */
import { isOperationError, OperationError, throwIfAborted, toOperationError } from "./errors.js";
import type { FileType, ListTreeOptions, TreeEntry, TreeListing } from "./types.js";

/**
 * Exit codes of {@link TREE_LISTING_SCRIPT} for a root that cannot be listed, as the errno each
 * stands for (an adapter maps them with `toOperationError`, like a local failure).
 */
export const TREE_LISTING_EXIT: Readonly<Record<number, string>> = {
  90: "ENOENT",
  91: "EACCES",
  92: "ENOTDIR",
};

/** How the script reads each entry: GNU find's `-printf`, or `stat -c` in batches (busybox, BSD-less POSIX). */
export type TreeListingMode = "gnu" | "posix";

/**
 * The listing script (POSIX sh; busybox ash, dash and bash run it). Arguments: the root, the most
 * entries, the mode ("gnu", "posix", or "" to detect), then the directory names to list but not
 * enter (glob characters escaped: they reach `find -name`). Output, NUL-terminated records: first
 * the mode used, then one record per entry, and an empty record after each group of entries
 * (the whole tree, or one depth) that is complete.
 *
 * A tree of no more than the bound is listed in one `find` pass (after a counting pass that
 * stops past the bound). A larger one is listed depth by depth (1, 2, ...) while the last depth
 * had entries and no more than the bound were printed in all, so a listing cut by the bound holds
 * every entry of the depths before the cut, whatever order `find` reads a directory in (the
 * reader sorts). Each depth is a `find -maxdepth D` that keeps only paths of D components
 * (`-path` with D times `/*`: its `*` also matches `/` and a leading dot), counted first.
 * Skipped directories are listed and pruned (`-prune ! -prune` inside a negated group: busybox
 * find has no `-true`/`-false`).
 *
 * A record is `%y %s %T@ PATH` in GNU mode and, in POSIX mode, `stat -c '%f %s %Y %y'` (raw mode
 * in hex, size, mtime seconds, mtime with nanoseconds) then the path, from `stat` in batches
 * through `-exec ... {} +` (busybox batches only at the top level of the expression, hence the
 * negated groups). An entry that vanished or cannot be read is left out. The root failing exits
 * with a {@link TREE_LISTING_EXIT} code.
 */
export const TREE_LISTING_SCRIPT = [
  `if ! cd -- "$1" 2>/dev/null; then`,
  `  if [ ! -e "$1" ]; then exit 90; elif [ ! -d "$1" ]; then exit 92; else exit 91; fi`,
  `fi`,
  `[ -r . ] || exit 91`,
  `max=$2; mode=$3; shift 3`,
  `if [ -z "$mode" ]; then if find . -maxdepth 0 -printf '' >/dev/null 2>&1; then mode=gnu; else mode=posix; fi; fi`,
  `printf '%s\\0' "$mode"`,
  // One batch of paths in POSIX mode: one stat for all, or one each when some entry vanished
  // (the name of each comes from the arguments, so any byte but NUL may be in it).
  `each='if o=$(stat -c "%f %s %Y %y" -- "$@" 2>/dev/null); then printf "%s\\n" "$o" | { for f do IFS= read -r l; printf "%s %s\\0" "$l" "\${f#./}"; done; }; else for f do l=$(stat -c "%f %s %Y %y" -- "$f" 2>/dev/null) && printf "%s %s\\0" "$l" "\${f#./}"; done; fi'`,
  // The skipped names as words for eval: `-name "${1}"` refers to an argument, never splices it in.
  `skip=; i=0`,
  `for s do i=$((i + 1)); skip="$skip\${skip:+ -o }-name \\"\\\${$i}\\""; done`,
  `where='-path "$pattern"'`,
  `[ -z "$skip" ] || where="! \\\\( -type d \\\\( $skip \\\\) -prune ! $where \\\\) $where"`,
  `if [ "$mode" = gnu ]; then print="-printf '%y %s %T@ %P\\\\0'"; else print='-exec sh -c "$each" sh {} +'; fi`,
  // The whole tree in one pass when it holds no more than the bound (counting stops past it).
  `keep=`,
  `[ -z "$skip" ] || keep="! \\\\( -type d \\\\( $skip \\\\) -prune ! -prune \\\\)"`,
  `all=$(eval "find . -mindepth 1 $keep -print0" 2>/dev/null | tr '\\000\\n' '\\n\\000' | head -n "$((max + 1))" | wc -l)`,
  `if [ "$all" -le "$max" ]; then`,
  `  eval "find . -mindepth 1 $keep $print" 2>/dev/null`,
  `  printf '\\0'`,
  `  exit 0`,
  `fi`,
  // Else depth by depth (see above).
  `total=0; depth=0; pattern=.`,
  `while :; do`,
  `  depth=$((depth + 1)); pattern="$pattern/*"`,
  // A first pass counts the depth's entries: an empty depth ends the listing.
  `  found=$(eval "find . -maxdepth $depth $where -print0" 2>/dev/null | tr -dc '\\000' | wc -c)`,
  `  [ "$found" -gt 0 ] || break`,
  `  eval "find . -maxdepth $depth $where $print" 2>/dev/null`,
  `  printf '\\0'`,
  `  total=$((total + found))`,
  `  [ "$total" -le "$max" ] || break`,
  `done`,
].join("\n");

const TYPE_OF_LETTER: Readonly<Record<string, FileType>> = { f: "file", d: "directory", l: "symlink" };
const S_IFMT = 0xf000;
const TYPE_OF_MODE: Readonly<Record<number, FileType>> = {
  32768: "file",
  16384: "directory",
  40960: "symlink",
};

/** Milliseconds since the epoch from whole seconds and a decimal fraction, as Node computes `mtimeMs`. */
function millis(seconds: string, fraction: string): number {
  const nanos = Number.parseInt(fraction.padEnd(9, "0").slice(0, 9), 10);
  return Number(seconds) * 1e3 + nanos / 1e6;
}

/**
 * Reads the script's output as it arrives: complete groups (the whole tree, or one depth) are
 * kept, the group in progress is dropped if the run is stopped (a time budget), so what was read
 * is always every entry down to some depth.
 */
export class TreeListingReader {
  /** Entries of the groups read to their end. */
  readonly entries: TreeEntry[] = [];
  /** The mode the script used, once its first record arrived. */
  mode: TreeListingMode | undefined;
  #pending: TreeEntry[] = [];
  #rest: Buffer = Buffer.alloc(0);
  readonly #decoder = new TextDecoder();

  /** Takes one chunk of output. */
  push(chunk: Uint8Array): void {
    let bytes = this.#rest.length > 0 ? Buffer.concat([this.#rest, chunk]) : Buffer.from(chunk);
    for (let end = bytes.indexOf(0); end !== -1; end = bytes.indexOf(0)) {
      this.#record(this.#decoder.decode(bytes.subarray(0, end)));
      bytes = bytes.subarray(end + 1);
    }
    this.#rest = Buffer.from(bytes);
  }

  #record(text: string): void {
    if (this.mode === undefined) {
      this.mode = text === "gnu" ? "gnu" : "posix";
      return;
    }
    if (text === "") {
      for (const entry of this.#pending) this.entries.push(entry);
      this.#pending = [];
      return;
    }
    const entry = this.mode === "gnu" ? gnuEntry(text) : posixEntry(text);
    if (entry) this.#pending.push(entry);
  }
}

/** `%y %s %T@ PATH`. */
function gnuEntry(text: string): TreeEntry | undefined {
  const [letter = "", size = "", time = ""] = text.split(" ", 3);
  const path = text.slice(letter.length + size.length + time.length + 3);
  if (path === "") return undefined;
  const type = TYPE_OF_LETTER[letter] ?? "other";
  if (type === "directory") return { path, type, size: 0, mtimeMs: 0 };
  const [seconds = "0", fraction = ""] = time.split(".");
  return { path, type, size: Number(size), mtimeMs: millis(seconds, fraction) };
}

/** `%f %s %Y %y PATH`, `%y` being `DATE TIME.NANOS ZONE`. */
function posixEntry(text: string): TreeEntry | undefined {
  const fields = text.split(" ", 6);
  if (fields.length < 6) return undefined;
  const [rawMode = "0", size = "0", seconds = "0", , clock = ""] = fields;
  const path = text.slice(fields.reduce((sum, field) => sum + field.length + 1, 0));
  if (path === "") return undefined;
  const type = TYPE_OF_MODE[Number.parseInt(rawMode, 16) & S_IFMT] ?? "other";
  if (type === "directory") return { path, type, size: 0, mtimeMs: 0 };
  return { path, type, size: Number(size), mtimeMs: millis(seconds, clock.split(".")[1] ?? "") };
}

/**
 * The listing of the local adapter from what the reader kept: breadth first, names sorted per
 * directory (by UTF-16 code units, as `<` compares), cut at `maxEntries`. `stopped`: the run ended
 * before the script did (time budget), so the listing is incomplete whatever it holds.
 */
export function treeListingOf(
  entries: readonly TreeEntry[],
  maxEntries: number,
  stopped: boolean,
): TreeListing {
  const keyed = entries.map((entry) => ({ entry, parts: entry.path.split("/") }));
  keyed.sort((a, b) => {
    if (a.parts.length !== b.parts.length) return a.parts.length - b.parts.length;
    for (let index = 0; index < a.parts.length; index++) {
      const x = a.parts[index] as string;
      const y = b.parts[index] as string;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
  const cut = keyed.length > maxEntries;
  return {
    entries: keyed.slice(0, Math.max(0, maxEntries)).map(({ entry }) => entry),
    complete: !cut && !stopped,
  };
}

/**
 * Runs {@link TREE_LISTING_SCRIPT} once for `Operations.listTree`. `run` starts it with the given
 * arguments in the environment, passes every stdout chunk to `onChunk` as it arrives, ends it when
 * `signal` aborts (rejecting), and resolves with its exit code. `mode`: what an earlier run on
 * the same environment found (`undefined`: the script detects it and the result says what it
 * found). At `options.timeBudgetMs` the run is stopped and the depths read to their end are the
 * listing (`complete: false`), as the local adapter stops where its budget ends.
 */
export async function runTreeListing(
  root: string,
  options: ListTreeOptions,
  mode: TreeListingMode | undefined,
  run: (args: string[], signal: AbortSignal, onChunk: (bytes: Uint8Array) => void) => Promise<number>,
): Promise<{ listing: TreeListing; mode: TreeListingMode | undefined }> {
  throwIfAborted(options.signal, "listTree");
  const names = (options.skipDirectories ?? []).map((name) => name.replace(/[[\]*?\\]/g, "\\$&"));
  const args = [root, String(Math.max(0, options.maxEntries)), mode ?? "", ...names];
  const reader = new TreeListingReader();
  const stop = new AbortController();
  let outOfTime = false;
  const timer = setTimeout(() => {
    outOfTime = true;
    stop.abort();
  }, options.timeBudgetMs);
  const forward = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", forward, { once: true });
  try {
    const exitCode = await run(args, stop.signal, (bytes) => reader.push(bytes));
    const errno = TREE_LISTING_EXIT[exitCode];
    if (errno)
      throw toOperationError(Object.assign(new Error(errno), { code: errno }), {
        operation: "listTree",
        path: root,
      });
    if (exitCode !== 0) {
      throw new OperationError("unknown", `listTree: the listing script exited with ${exitCode}`, {
        operation: "listTree",
        path: root,
      });
    }
    return { listing: treeListingOf(reader.entries, options.maxEntries, false), mode: reader.mode };
  } catch (error) {
    if (outOfTime && !options.signal?.aborted) {
      return { listing: treeListingOf(reader.entries, options.maxEntries, true), mode: reader.mode };
    }
    if (options.signal?.aborted && !isOperationError(error, "aborted")) {
      throw new OperationError("aborted", "listTree aborted", {
        operation: "listTree",
        path: root,
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", forward);
  }
}
