/**
 * How a path as a model writes it maps to paths in the environment. A model's path may be meant
 * literally (a file really named `@x` or `a\u202Fb.png`) or carry syntax (`~/x`, `@src/a.ts`
 * mention syntax, a `file://` URL, a stray space at the end); {@link pathSpellings} lists what it
 * may mean, in the order they are tried. Which one exists is decided with I/O elsewhere
 * (`choosePath`); docs/paths.md states the whole precedence.
 */

/** Spaces models copy from rendered text: NBSP, en/em/thin/hair spaces, narrow NBSP, ideographic space... */
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032\u2035]/g;
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033\u2036]/g;
/** Whitespace (ASCII and Unicode spaces, line breaks) that can surround a copied path. */
const EDGE_SPACE =
  /^[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+|[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+$/g;

/** What {@link normalizeModelPath} and {@link pathSpellings} need to know about the environment. */
export interface NormalizeOptions {
  platform: "posix" | "win32";
  /** Home directory for `~`; `~` stays literal when unknown. */
  homeDir?: string | undefined;
}

/** The ways a model's path may be meant, most likely first (see {@link pathSpellings}). */
export interface PathSpellings {
  /** Candidates in the order they are tried for an existing path. Never empty. */
  tried: string[];
  /** The candidate used when none exists (what a new file is created as). */
  fallback: string;
  /**
   * For `@name/...`: the literal first component (`@name`). When it exists, a new path keeps the
   * literal `@` (a file inside an existing `@scope/` directory) instead of the mention reading.
   */
  literalScope?: string;
}

/**
 * Lists the paths `input` may mean, in precedence order:
 *
 * 1. A `file://` URL means its decoded path, and only that.
 * 2. `~` and `~/...` mean the home directory (when known) first, the literal name `~` second.
 * 3. Otherwise the literal input first; then, when they differ, the input without surrounding
 *    whitespace and without a leading `@` (mention syntax).
 *
 * Look-alike characters (Unicode spaces, curly quotes, NFC vs NFD) are not spelled out here:
 * they are matched against the names that exist (see {@link looseNameKey}).
 */
export function pathSpellings(input: string, options: NormalizeOptions): PathSpellings {
  const trimmed = input.replace(EDGE_SPACE, "");
  if (/^file:\/\//i.test(trimmed)) {
    const decoded = nonEmpty(fromFileUrl(trimmed, options.platform));
    return { tried: [decoded], fallback: decoded };
  }
  const home = expandHome(trimmed, options);
  if (home !== undefined) return { tried: unique([home, nonEmpty(input), trimmed]), fallback: home };
  const mention = trimmed.startsWith("@") ? nonEmpty(trimmed.slice(1)) : undefined;
  const tried = unique([nonEmpty(input), nonEmpty(trimmed), ...(mention ? [mention] : [])]);
  if (mention === undefined) return { tried, fallback: nonEmpty(trimmed) };
  const scope = trimmed.split(options.platform === "win32" ? /[\\/]/ : "/")[0] as string;
  return { tried, fallback: mention, literalScope: scope };
}

/**
 * The path a model most likely means, without looking at the environment: what a new file is
 * created as (a `file://` URL decoded, `~` expanded, a leading `@` and surrounding whitespace
 * dropped). Resolution against `cwd` happens afterwards.
 */
export function normalizeModelPath(input: string, options: NormalizeOptions): string {
  return pathSpellings(input, options).fallback;
}

/**
 * The form two file names are compared in when the exact name does not exist: NFC, Unicode
 * spaces as ASCII spaces, curly quotes as straight ones. `Screenshot 10.00\u202FAM.png` and
 * `Screenshot 10.00 AM.png` have the same key; so do `café` in NFC and in NFD.
 */
export function looseNameKey(name: string): string {
  return name
    .normalize("NFC")
    .replace(UNICODE_SPACES, " ")
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"');
}

function expandHome(path: string, options: NormalizeOptions): string | undefined {
  if (!options.homeDir) return undefined;
  const tilde =
    path === "~" || path.startsWith("~/") || (options.platform === "win32" && path.startsWith("~\\"));
  return tilde ? options.homeDir + path.slice(1) : undefined;
}

/** An empty path means the working directory. */
function nonEmpty(path: string): string {
  return path === "" ? "." : path;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
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
