// The public entry points of the published packages, read from each package.json `exports`, so the
// API reference documents exactly what users can import (a new subpath export shows up by itself).
import fs from "node:fs";
import path from "node:path";

/**
 * Every published entry point: `{ name, file }` with `name` the import specifier
 * (`@tackle/tools/local`) and `file` the absolute path of its TypeScript source.
 * @param {string} root the repository root
 */
export function publicEntryPoints(root) {
  const base = path.join(root, "packages");
  const entries = [];
  for (const dir of fs.readdirSync(base).sort()) {
    const manifestPath = path.join(base, dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.private === true) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const built = typeof target === "string" ? target : target.import;
      if (typeof built !== "string" || !built.endsWith(".js")) continue;
      const source = built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
      const file = path.join(base, dir, source);
      if (!fs.existsSync(file)) throw new Error(`${manifest.name} exports ${subpath} but ${file} is missing`);
      entries.push({ name: path.posix.join(manifest.name, subpath), file });
    }
  }
  return entries;
}
