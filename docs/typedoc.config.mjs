// TypeDoc: the API reference of every published entry point, as Markdown pages under reference/
// that VitePress renders with the rest of the site (generated on each build, not committed).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { repository } from "./.vitepress/site.mjs";
import { publicEntryPoints } from "./.vitepress/typedoc/entry-points.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const entries = publicEntryPoints(path.resolve(here, ".."));

/** @type {Partial<import("typedoc").TypeDocOptions & import("typedoc-plugin-markdown").PluginOptions>} */
export default {
  name: "API reference",
  entryPoints: entries.map(({ file }) => file),
  entryPointStrategy: "resolve",
  tsconfig: path.join(here, "tsconfig.typedoc.json"),
  // One program over the sources: an import of another package resolves to its source, so a type
  // from @tackle/operations used by @tackle/tools links to its page instead of a .d.ts in dist/.
  compilerOptions: { paths: Object.fromEntries(entries.map(({ name, file }) => [name, [file]])) },
  out: path.join(here, "reference"),
  plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme", "./.vitepress/typedoc/module-names.mjs"],
  docsRoot: here,
  readme: "none",
  // "Defined in" links to the source on GitHub (the checkout may have no remote to detect).
  disableGit: true,
  basePath: path.resolve(here, ".."),
  displayBasePath: path.resolve(here, ".."),
  sourceLinkTemplate: `${repository}/blob/main/{path}#L{line}`,
  // One page per entry point (about 20 pages, each member under its own heading): a page per
  // member would be 450 pages and make the site build several times slower.
  outputFileStrategy: "modules",
  // Explicit anchors: the plugin's guess of VitePress's duplicate-heading slugs (`#name-1`) misses in
  // modules mode, and the site test fails on any anchor that does not exist.
  useHTMLAnchors: true,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  hideGenerator: true,
  sort: ["kind", "alphabetical"],
  // What a reader calls comes first on a module's page: its functions and classes, then the
  // constants, then the types they take and return.
  groupOrder: ["Functions", "Classes", "Variables", "Interfaces", "Type Aliases", "*"],
  kindSortOrder: ["Function", "Class", "Variable", "Interface", "TypeAlias", "Enum"],
  validation: { notExported: false, invalidLink: true, unusedMergeModuleWith: true },
  treatWarningsAsErrors: false,
};
