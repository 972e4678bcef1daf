import { posix, win32 } from "node:path";
import type { PolicyScope } from "./types.js";

/** How a path argument relates to the workspace. */
export type PathClass = "inside" | "outside" | "root-or-above" | "dynamic";

function looksWindows(path: string): boolean {
  return /^[A-Za-z]:([\\/]|$)/.test(path) || path.startsWith("\\\\");
}

/**
 * Resolves a literal path the way the shell will see it (relative to cwd, `~` to home) and
 * classifies it against the workspace roots. Symbolic links are not followed: the policy
 * judges the command's text, not the filesystem (one of its documented limits).
 */
export function classifyPath(
  raw: string,
  scope: PolicyScope,
): { cls: PathClass; resolved: string; onRoot?: boolean } {
  let path = raw;
  if (path === "~" || path.startsWith("~/") || path.startsWith("~\\")) {
    if (!scope.homeDir) return { cls: "dynamic", resolved: raw };
    path = scope.homeDir + path.slice(1);
  }
  const windows = scope.platform === "win32" || looksWindows(path);
  const lib = windows ? win32 : posix;
  const resolved = lib.resolve(scope.cwd, path);
  const norm = (p: string) =>
    (windows ? p.toLowerCase().replace(/[\\/]+$/, "") : p.replace(/\/+$/, "")) || lib.sep;
  const target = norm(resolved);
  for (const root of scope.roots) {
    const r = norm(root);
    if (target === r) return { cls: "root-or-above", resolved, onRoot: true };
    if (target.startsWith(r.endsWith(lib.sep) ? r : r + lib.sep)) return { cls: "inside", resolved };
    if (r.startsWith(target === lib.sep ? target : target + lib.sep))
      return { cls: "root-or-above", resolved };
  }
  return { cls: "outside", resolved };
}

/**
 * Where a `cd` to `raw` lands when that is outside every workspace root or strictly above one
 * (`cd /` lies above the roots, so classifyPath calls it root-or-above); undefined when it
 * stays inside or on a root, or when the target is not known until run time.
 */
export function cwdEscapeTarget(raw: string, scope: PolicyScope): string | undefined {
  const { cls, resolved, onRoot } = classifyPath(raw, scope);
  if (cls === "outside") return resolved;
  return cls === "root-or-above" && !onRoot ? resolved : undefined;
}

/** True when `resolved` starts with one of the allowed prefixes (exact match for non-directories). */
export function isWritableException(resolved: string, writable: readonly string[]): boolean {
  return writable.some((w) => (w.endsWith("/") ? resolved.startsWith(w) : resolved === w));
}
