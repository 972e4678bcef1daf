/**
 * Turns a path as a model writes it into a plain path string: unicode spaces become ASCII
 * spaces, a leading `@` (mention syntax) is dropped, `file://` URLs are decoded, `~` expands to
 * the environment's home directory. Resolution against `cwd` happens afterwards.
 */

/** Spaces models copy from rendered text: NBSP, en/em/thin/hair spaces, narrow NBSP, ideographic space... */
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;

/** What {@link normalizeModelPath} needs to know about the environment. */
export interface NormalizeOptions {
  platform: "posix" | "win32";
  /** Home directory for `~`; `~` stays literal when unknown. */
  homeDir?: string | undefined;
}

/** Normalises a model-supplied path (see the module comment). Does not resolve it. */
export function normalizeModelPath(input: string, options: NormalizeOptions): string {
  let path = input.replace(UNICODE_SPACES, " ").trim();
  if (path.startsWith("@")) path = path.slice(1);
  if (/^file:\/\//i.test(path)) path = fromFileUrl(path, options.platform);
  if (
    options.homeDir &&
    (path === "~" || path.startsWith("~/") || (options.platform === "win32" && path.startsWith("~\\")))
  ) {
    path = options.homeDir + path.slice(1);
  }
  return path;
}

function fromFileUrl(url: string, platform: "posix" | "win32"): string {
  let rest = url.slice("file://".length);
  // file://localhost/x and file:///x both mean /x; another host is kept as a UNC path on win32.
  if (rest.toLowerCase().startsWith("localhost/")) rest = rest.slice("localhost".length);
  const decoded = safeDecode(rest);
  if (platform === "win32") {
    const drive = /^\/([a-zA-Z]:)(\/.*)?$/.exec(decoded);
    if (drive) return `${drive[1]}${(drive[2] ?? "\\").replaceAll("/", "\\")}`;
    if (!decoded.startsWith("/")) return `\\\\${decoded.replaceAll("/", "\\")}`;
    return decoded.replaceAll("/", "\\");
  }
  return decoded;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
