/**
 * Which entries of one directory the ignore files exclude, by the same rules as grep and find
 * (src/search/ignore-rules.ts): the directory's own ignore files plus those of every ancestor.
 */
import type { DirEntry, Operations } from "@tackle/operations";
import { isOperationError } from "@tackle/operations";
import { pathSyntax } from "../path/workspace-policy.js";
import { IGNORE_FILE_NAMES, type IgnoreFrame, isIgnored, parseIgnoreFile } from "../search/ignore-rules.js";

/** Largest ignore file read; a bigger one is skipped. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** Returns a predicate telling whether an entry of `dir` (listed as `entries`) is ignored. */
export async function loadEntryIgnore(
  ops: Pick<Operations, "platform" | "readdir" | "readFile">,
  dir: string,
  entries: readonly DirEntry[],
  signal: AbortSignal | undefined,
): Promise<(name: string, isDir: boolean) => boolean> {
  const syntax = pathSyntax(ops.platform);
  const frames: IgnoreFrame[] = [await frameOf(ops, dir, entries, "", signal)];
  let below = "";
  let current = dir;
  for (;;) {
    const parent = syntax.dirname(current);
    if (parent === current) break;
    below = below === "" ? syntax.basename(current) : `${syntax.basename(current)}/${below}`;
    current = parent;
    let parentEntries: DirEntry[];
    try {
      parentEntries = await ops.readdir(current, { signal });
    } catch (error) {
      if (isOperationError(error, "aborted")) throw error;
      continue;
    }
    frames.unshift(await frameOf(ops, current, parentEntries, `${below}/`, signal));
  }
  return (name, isDir) => isIgnored(frames, name, isDir);
}

async function frameOf(
  ops: Pick<Operations, "platform" | "readFile">,
  dir: string,
  entries: readonly DirEntry[],
  prefix: string,
  signal: AbortSignal | undefined,
): Promise<IgnoreFrame> {
  const syntax = pathSyntax(ops.platform);
  const frame: IgnoreFrame = { hasGit: false, strip: 0, prefix };
  for (const entry of entries) {
    if (entry.name === ".git") {
      frame.hasGit = true;
      if (entry.type === "directory")
        frame.gitExclude = await rules(ops, syntax.join(dir, ".git", "info", "exclude"), signal);
      continue;
    }
    if (entry.type === "directory" || !(IGNORE_FILE_NAMES as readonly string[]).includes(entry.name))
      continue;
    const parsed = await rules(ops, syntax.join(dir, entry.name), signal);
    if (entry.name === ".rgignore") frame.rgignore = parsed;
    else if (entry.name === ".ignore") frame.dotignore = parsed;
    else frame.gitignore = parsed;
  }
  return frame;
}

async function rules(ops: Pick<Operations, "readFile">, path: string, signal: AbortSignal | undefined) {
  try {
    return parseIgnoreFile(
      new TextDecoder().decode(await ops.readFile(path, { signal, maxBytes: MAX_IGNORE_FILE_BYTES })),
    );
  } catch (error) {
    if (isOperationError(error, "aborted")) throw error;
    return undefined;
  }
}
