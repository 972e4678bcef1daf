/**
 * Reading the ignore files that apply to a directory: its own and those of every directory
 * above it (ripgrep reads the parents of a search path too). Shared by the portable walk and
 * anything that needs the same verdicts for one directory (see `loadIgnoreFrames`).
 */
import type { DirEntry, Operations } from "@tackle/operations";
import { isOperationError } from "@tackle/operations";
import { pathSyntax } from "@tackle/session";
import { IGNORE_FILE_NAMES, type IgnoreFrame, parseIgnoreFile } from "./ignore-rules.js";

/** What reading ignore files needs from an environment. */
export type IgnoreFrameOperations = Pick<Operations, "platform" | "readdir" | "readFile">;

/** Largest ignore file read; bigger ones are skipped rather than stall the walk. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The frames for deciding about the entries of `dir` (listed as `entries`) with `isIgnored`,
 * passing each entry's name as its relative path: the ancestors' frames, outermost first, then
 * the directory's own.
 */
export async function loadIgnoreFrames(
  ops: IgnoreFrameOperations,
  dir: string,
  entries: readonly DirEntry[],
  signal: AbortSignal | undefined,
): Promise<IgnoreFrame[]> {
  const ancestors = await loadAncestorFrames(ops, dir, signal);
  return [...ancestors, await readFrame(ops, dir, entries, { strip: 0, prefix: "" }, signal)];
}

/**
 * Frames of the directories above `root`, outermost first. ripgrep reads the ignore files of
 * every parent of a search path, so a search in `src/` still honours the repository's root
 * `.gitignore`.
 */
export async function loadAncestorFrames(
  ops: IgnoreFrameOperations,
  root: string,
  signal: AbortSignal | undefined,
): Promise<IgnoreFrame[]> {
  const flavor = pathSyntax(ops.platform);
  const frames: IgnoreFrame[] = [];
  let below = "";
  let current = root;
  for (;;) {
    const parent = flavor.dirname(current);
    if (parent === current) break;
    below = below === "" ? flavor.basename(current) : `${flavor.basename(current)}/${below}`;
    current = parent;
    let entries: DirEntry[];
    try {
      entries = await ops.readdir(current, { signal });
    } catch (error) {
      if (isOperationError(error, "aborted")) throw error;
      continue;
    }
    frames.unshift(await readFrame(ops, current, entries, { strip: 0, prefix: `${below}/` }, signal));
  }
  return frames;
}

/** The frame of one directory, from its listing. */
export async function readFrame(
  ops: IgnoreFrameOperations,
  dir: string,
  entries: readonly DirEntry[],
  position: { strip: number; prefix: string },
  signal: AbortSignal | undefined,
): Promise<IgnoreFrame> {
  const flavor = pathSyntax(ops.platform);
  const frame: IgnoreFrame = { ...emptyFrame(), ...position };
  for (const entry of entries) {
    if (entry.name === ".git") {
      frame.hasGit = true;
      if (entry.type === "directory") {
        frame.gitExclude = await readIgnoreFile(ops, flavor.join(dir, ".git", "info", "exclude"), signal);
      }
      continue;
    }
    if (entry.type === "directory") continue;
    const index = (IGNORE_FILE_NAMES as readonly string[]).indexOf(entry.name);
    if (index < 0) continue;
    const rules = await readIgnoreFile(ops, flavor.join(dir, entry.name), signal);
    if (entry.name === ".rgignore") frame.rgignore = rules;
    else if (entry.name === ".ignore") frame.dotignore = rules;
    else frame.gitignore = rules;
  }
  return frame;
}

async function readIgnoreFile(ops: IgnoreFrameOperations, path: string, signal: AbortSignal | undefined) {
  try {
    const bytes = await ops.readFile(path, { signal, maxBytes: MAX_IGNORE_FILE_BYTES });
    return parseIgnoreFile(new TextDecoder().decode(bytes));
  } catch (error) {
    if (isOperationError(error, "aborted")) throw error;
    // Missing, unreadable, too large or a dangling link: ripgrep skips it too.
    return undefined;
  }
}

/** A frame with no rules. */
export function emptyFrame(): IgnoreFrame {
  return { hasGit: false, strip: 0, prefix: "" };
}
