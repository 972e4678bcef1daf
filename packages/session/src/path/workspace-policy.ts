/**
 * The workspace path policy: normalise a model's path, resolve it against `cwd`, resolve its
 * real path through `Operations` and check it against the workspace roots.
 */
import { posix, win32 } from "node:path";
import { quoteInput, shortenInput, ToolError } from "@tackle/agent-core";
import type { OutsideWorkspacePolicy, PathAccess, ResolvedPath, WorkspacePolicy } from "@tackle/extensions";
import { toToolError } from "@tackle/extensions";
import { isOperationError, type Operations } from "@tackle/operations";
import { type ChoosePathOperations, choosePath } from "./choose-path.js";
import { PATH_LIMITS } from "./limits.js";
import { normalizeModelPath, pathSpellings } from "./normalize.js";
import { type PathSyntax, resolveRealPath } from "./real-path.js";

/** The `Operations` methods the policy uses (`readdir` for names that match only up to look-alike characters). */
export type WorkspaceOperations = ChoosePathOperations &
  Pick<Operations, "platform"> & { readonly homeDir?: string };

/** Options for {@link createWorkspacePolicy}. */
export interface WorkspacePolicyOptions {
  operations: WorkspaceOperations;
  /** Working directory (absolute); relative paths resolve against it. */
  cwd: string;
  /** Workspace roots (absolute). Default: `[cwd]`. */
  roots?: readonly string[];
  /** What happens outside the roots. Default `"deny"`. */
  outside?: OutsideWorkspacePolicy;
}

/** `path.posix` or `path.win32`, as the environment's platform says. */
export function pathSyntax(platform: "posix" | "win32"): PathSyntax {
  return platform === "win32" ? win32 : posix;
}

/**
 * Creates the {@link WorkspacePolicy} of a session. Roots are compared by real path (resolved
 * once through `Operations`, again after `addRoot`/`setRoots`), case-insensitively on win32.
 */
export function createWorkspacePolicy(options: WorkspacePolicyOptions): WorkspacePolicy {
  const ops = options.operations;
  const syntax = pathSyntax(ops.platform);
  let roots: readonly string[] = options.roots ?? [options.cwd];
  let realRoots: Promise<string[]> | undefined;

  const loadRealRoots = (signal?: AbortSignal): Promise<string[]> => {
    realRoots ??= Promise.all(
      roots.map(
        async (root) => (await resolveRealPath(ops, syntax, syntax.resolve(options.cwd, root), signal)).real,
      ),
    ).catch((error: unknown) => {
      realRoots = undefined;
      throw error;
    });
    return realRoots;
  };

  return {
    get roots() {
      return roots;
    },
    outside: options.outside ?? "deny",
    async resolve(input, access, callOptions) {
      const signal = callOptions?.signal;
      assertUsablePath(input, ops.platform);
      const spellings = pathSpellings(input, { platform: ops.platform, homeDir: ops.homeDir });
      const { absolute, real, exists, loop } = await choosePath(
        ops,
        syntax,
        options.cwd,
        spellings,
        signal,
      ).catch((error: unknown) => {
        // The environment refused the path itself (ENAMETOOLONG, EINVAL): an argument error.
        throw isOperationError(error, "invalid_argument") ? toToolError(error, input) : error;
      });
      const display = displayPath(syntax, options.cwd, absolute);
      if (loop) throw linkLoopError(syntax, options.cwd, display, loop);
      const root = (await loadRealRoots(signal)).find((candidate) =>
        isInside(syntax, candidate, real, ops.platform),
      );
      const insideWorkspace = root !== undefined;
      const resolved: ResolvedPath = {
        absolute,
        real,
        display,
        exists,
        insideWorkspace,
        ...(root === undefined ? {} : { root }),
      };
      if (!insideWorkspace) assertAllowed(this.outside, access, resolved, roots);
      return resolved;
    },
    addRoot(root) {
      roots = [...roots, root];
      realRoots = undefined;
    },
    setRoots(next) {
      roots = [...next];
      realRoots = undefined;
    },
  };
}

/** Options for {@link resolveWorkspacePath}. */
export interface ResolveWorkspacePathOptions {
  cwd: string;
  platform: "posix" | "win32";
  homeDir?: string | undefined;
}

/**
 * Normalises a model-supplied path and makes it absolute against `cwd` in the environment's
 * path syntax: the path a new file would get. No I/O and no policy: the policy's `resolve` may
 * pick another spelling that exists (docs/paths.md).
 */
export function resolveWorkspacePath(input: string, options: ResolveWorkspacePathOptions): string {
  const syntax = pathSyntax(options.platform);
  const normalized = normalizeModelPath(input, { platform: options.platform, homeDir: options.homeDir });
  return syntax.resolve(options.cwd, normalized === "" ? "." : normalized);
}

/** True when `path` is `root` or lies below it. */
export function isInside(
  syntax: PathSyntax,
  root: string,
  path: string,
  platform: "posix" | "win32",
): boolean {
  const a = platform === "win32" ? root.toLowerCase() : root;
  const b = platform === "win32" ? path.toLowerCase() : path;
  if (a === b) return true;
  const prefix = a.endsWith(syntax.sep) ? a : a + syntax.sep;
  return b.startsWith(prefix);
}

/** Path relative to `cwd` with POSIX separators when inside it, else the absolute path. */
export function displayPath(syntax: PathSyntax, cwd: string, absolute: string): string {
  const relative = syntax.relative(cwd, absolute);
  if (relative === "") return ".";
  // `..` or `../x` leaves cwd; a name that merely starts with dots (`..cache`) does not.
  const leaves = relative === ".." || relative.startsWith(`..${syntax.sep}`);
  if (leaves || syntax.isAbsolute(relative)) return absolute;
  return syntax.sep === "\\" ? relative.replaceAll("\\", "/") : relative;
}

/**
 * A NUL byte ends a path at the system call, and a name or a path longer than any file system
 * takes fails there too: each is refused before any I/O, as an argument error with its limit.
 */
function assertUsablePath(input: string, platform: "posix" | "win32"): void {
  if (input.includes("\0")) {
    throw new ToolError(
      "invalid_arguments",
      `The path ${quoteInput(input)} contains a NUL byte (\\0), which no file name can hold. Send the path without it.`,
      { details: { path: input } },
    );
  }
  // An environment refuses these with EINVAL or ENAMETOOLONG ("realpath failed"), which tells
  // the model nothing about what to send instead.
  const size = (text: string) => (platform === "win32" ? text.length : Buffer.byteLength(text));
  const longest = input
    .split(platform === "win32" ? /[\\/]/ : "/")
    .reduce((a, b) => (size(b) > size(a) ? b : a), "");
  const unit = platform === "win32" ? "characters" : "bytes";
  if (size(longest) > PATH_LIMITS.nameMaxBytes) {
    throw new ToolError(
      "invalid_arguments",
      `The path ${quoteInput(input)} holds a name of ${size(longest)} ${unit}; no file system stores names over ${PATH_LIMITS.nameMaxBytes} ${unit}. Send a path whose names are at most ${PATH_LIMITS.nameMaxBytes} ${unit} each.`,
      { details: { path: shortenInput(input) } },
    );
  }
  if (platform === "posix" && size(input) >= PATH_LIMITS.maxBytes) {
    throw new ToolError(
      "invalid_arguments",
      `The path ${quoteInput(input)} is ${size(input)} bytes long; paths stop below ${PATH_LIMITS.maxBytes} bytes. Send a shorter path (a relative one from the working directory is shortest).`,
      { details: { path: shortenInput(input) } },
    );
  }
}

/** A circle of links leads to no file: say so instead of "not found". */
function linkLoopError(syntax: PathSyntax, cwd: string, display: string, loop: readonly string[]): ToolError {
  const chain = loop.map((link) => displayPath(syntax, cwd, link)).join(" -> ");
  return new ToolError(
    "not_found",
    `${display} leads into a loop of symbolic links (${chain}), so it names no file. Use another path, or point one of those links at a real file first.`,
    { details: { path: display, loop: [...loop] } },
  );
}

function assertAllowed(
  outside: OutsideWorkspacePolicy,
  access: PathAccess,
  resolved: ResolvedPath,
  roots: readonly string[],
): void {
  if (outside === "allow" || (outside === "read-only" && access === "read")) return;
  const where =
    resolved.real === resolved.absolute
      ? resolved.absolute
      : `${resolved.absolute} (really ${resolved.real})`;
  const what =
    outside === "read-only"
      ? "Writing outside the workspace is not allowed"
      : "This path is outside the workspace";
  throw new ToolError("outside_workspace", `${what}: ${where}. Use a path inside ${roots.join(", ")}.`, {
    details: { path: resolved.absolute, real: resolved.real, roots: [...roots], access, policy: outside },
  });
}
