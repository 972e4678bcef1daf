// Replaces tsc's dist/typebox-runtime.js (re-exports of @sinclair/typebox) with one module that
// holds the TypeBox runtime Tackle uses, after tsc has built dist/.
//
// Why: TypeBox ships 249 ES modules. Node's loader allocates per module (and its URL and path
// helpers get hot enough to be optimised), so a process that imported @tackle/tools peaked at
// 65 MB, about 13 MB of it for TypeBox's module count rather than its code. One module costs
// about what its code does.
//
// The types are untouched: dist/typebox-runtime.d.ts still re-exports @sinclair/typebox's types,
// so a schema from the user's TypeBox and one from ours are the same type (and, at run time,
// carry the same Symbol.for keys). TypeBox is MIT licensed; its notice heads the bundle.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(packageDir, "dist", "typebox-runtime.js");

/** TypeBox's license text, from the installed package (its exports do not list the file). */
function typeboxLicense() {
  let dir = dirname(createRequire(join(packageDir, "package.json")).resolve("@sinclair/typebox"));
  while (!existsSync(join(dir, "license"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("bundle-typebox: @sinclair/typebox's license file not found");
    dir = parent;
  }
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return { text: readFileSync(join(dir, "license"), "utf8").trim(), version };
}

const license = typeboxLicense();
await build({
  absWorkingDir: packageDir,
  entryPoints: ["src/typebox-runtime.ts"],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // Readable: minifying measured no smaller peak memory for this module.
  minify: false,
  // The map (replacing tsc's) leads into TypeBox's own files, their text embedded.
  sourcemap: "linked",
  sourcesContent: true,
  legalComments: "none",
  banner: {
    js: `/*!\n * @sinclair/typebox ${license.version}, bundled into one module by @tackle/agent-core.\n *\n${license.text
      .split("\n")
      .map((line) => ` * ${line}`.trimEnd())
      .join("\n")}\n */`,
  },
  logLevel: "warning",
});
