// Code imported into a page with `<<< @/../file.ts` or `<<< @/../file.ts#region` is code a reader
// copies. VitePress shows a whole file with its `// #region name` marker lines, and a region
// without the imports it needs. This plugin shows a whole file without the markers, and a region
// of a TypeScript or JavaScript file with the file's imports of the names the region uses.
import fs from "node:fs";

const MARKER = /^\s*\/\/ ?#?(end)?region\b.*$/;
const SCRIPT = /\.(m|c)?(ts|js)x?$/;

/** The text without `// #region` and `// #endregion` lines. */
export function withoutRegionMarkers(text) {
  return text
    .split("\n")
    .filter((line) => !MARKER.test(line))
    .join("\n");
}

/** The lines between `// #region name` and its `// #endregion`, indentation removed. */
function regionOf(text, name) {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^\\s*// ?#?region ${name}\\s*$`).test(line));
  if (start === -1) return undefined;
  const end = lines.findIndex(
    (line, i) => i > start && new RegExp(`^\\s*// ?#?endregion( ${name})?\\s*$`).test(line),
  );
  const body = lines.slice(start + 1, end === -1 ? undefined : end).filter((line) => !MARKER.test(line));
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
  return body.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

const IMPORT = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+(["'][^"']+["']);?$/gm;

/**
 * The file's `import ... from` statements, each cut down to the names `code` uses; a statement
 * none of whose names is used is left out. Side-effect imports (`import "x"`) are kept.
 */
export function importsUsedBy(source, code) {
  // A name counts when it stands alone: not a property (`a.name`), but spread (`...name`) is use.
  const spread = code.replace(/\.\.\./g, " ");
  const used = (name) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(spread);
  const lines = [];
  for (const line of source.matchAll(/^import\s+["'][^"']+["'];?$/gm)) lines.push(line[0]);
  for (const [, typeOnly = "", clause, from] of source.matchAll(IMPORT)) {
    const parts = [];
    const braces = /\{([\s\S]*)\}/.exec(clause);
    const head = clause
      .replace(/\{[\s\S]*\}/, "")
      .replace(/,\s*$/, "")
      .trim();
    if (head !== "") {
      const local = head.replace(/^\*\s+as\s+/, "").trim();
      if (used(local)) parts.push(head);
    }
    if (braces) {
      const names = braces[1]
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)
        .filter((n) =>
          used(
            n
              .split(/\s+as\s+/)
              .pop()
              .replace(/^type\s+/, ""),
          ),
        );
      if (names.length > 0) parts.push(`{ ${names.join(", ")} }`);
    }
    if (parts.length > 0) lines.push(`import ${typeOnly}${parts.join(", ")} from ${from};`);
  }
  return lines;
}

/** What a page shows for `<<< file` (`region` empty) or `<<< file#region`. */
export function snippetText(file, region) {
  const source = fs.readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  if (!region) return withoutRegionMarkers(source);
  const code = regionOf(source, region);
  if (code === undefined) return withoutRegionMarkers(source);
  if (!SCRIPT.test(file)) return code;
  const imports = importsUsedBy(source, code);
  return imports.length > 0 ? `${imports.join("\n")}\n\n${code}` : code;
}

/** The markdown-it plugin: runs before VitePress's own snippet rendering, which then sees plain code. */
export function completeSnippets(md) {
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const [src, region] = token.src ?? [];
    if (src && fs.existsSync(src) && fs.statSync(src).isFile()) {
      token.content = snippetText(src, region);
      env.includes?.push?.(src);
      token.src = undefined;
    }
    return fence(tokens, idx, options, env, self);
  };
}
