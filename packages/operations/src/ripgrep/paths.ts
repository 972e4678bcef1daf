/** Where rg ran: on Windows it prints `\\` separators, which a POSIX file name may hold. */
export type RipgrepPlatform = "posix" | "win32";

/**
 * rg's path for `./x/y` is `x/y`, request-relative, POSIX separators. A file searched by name
 * keeps its name.
 */
export function ripgrepRelativePath(rgPath: string, platform: RipgrepPlatform = "posix"): string {
  const posix = platform === "win32" ? rgPath.replaceAll("\\", "/") : rgPath;
  return posix.startsWith("./") ? posix.slice(2) : posix;
}
