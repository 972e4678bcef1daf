/**
 * What kind of text is being redacted, which decides what an unquoted value after `NAME=` is:
 *
 * - `config`: env, YAML, JSON, INI, TOML, properties, shell scripts, credential files. Every
 *   value is a literal, quoted or not.
 * - `code`: source files. Only quoted values are literals; `token = randomToken()` is code.
 * - `output`: command output, audit strings and files of unknown type. Either may appear, so an
 *   unquoted value is a literal only when no language would read it as an expression.
 *
 * Known secret formats and private keys are hidden in all three.
 */
export type RedactionSource = "config" | "code" | "output";

const CONFIG_EXTENSIONS = new Set([
  "env",
  "yaml",
  "yml",
  "json",
  "jsonc",
  "json5",
  "ini",
  "toml",
  "properties",
  "cfg",
  "conf",
  "config",
  "tfvars",
  "sh",
  "bash",
  "zsh",
  "npmrc",
  "pypirc",
  "netrc",
  "pgpass",
  "htpasswd",
  "pem",
  "key",
]);

/** File names that are configuration whatever their extension. */
const CONFIG_NAMES =
  /^(?:\.env(?:\..*)?|\.npmrc|\.pypirc|\.netrc|\.pgpass|\.git-credentials|\.dockercfg|credentials|\.htpasswd|id_[a-z0-9]+)$/i;

const CODE_EXTENSIONS = new Set([
  "ts",
  "tsx",
  "mts",
  "cts",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "py",
  "rb",
  "go",
  "rs",
  "java",
  "kt",
  "kts",
  "scala",
  "swift",
  "c",
  "h",
  "cc",
  "cpp",
  "hpp",
  "cs",
  "php",
  "lua",
  "dart",
  "ex",
  "exs",
  "erl",
  "clj",
  "vue",
  "svelte",
]);

/** The redaction source of a file, by its name (`.env` → config, `a.ts` → code, `README` → output). */
export function redactionSourceOf(path: string): RedactionSource {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  if (CONFIG_NAMES.test(name)) return "config";
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if (CONFIG_EXTENSIONS.has(extension)) return "config";
  if (CODE_EXTENSIONS.has(extension)) return "code";
  return "output";
}
