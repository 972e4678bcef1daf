// The layering rule of docs/architecture.md, checked against the real imports in each package's
// src/. Test files may import higher layers (an adapter runs the tools suite against itself), so
// only src/ counts: that is what ships.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Which @tackle packages each package's shipped code may import. */
export const ALLOWED_IMPORTS = {
  operations: [],
  "operations-local": ["operations"],
  "operations-ssh": ["operations"],
  "operations-docker": ["operations"],
  "operations-kubernetes": ["operations"],
  "agent-core": [],
  // The tree-sitter runtime, one per process: below everything that parses.
  "tree-sitter": [],
  // The command policy: rules on the shell grammars, nothing of the tools or the loop.
  "shell-policy": ["tree-sitter"],
  extensions: ["operations", "agent-core"],
  // The session runtime: path policy, mutation queue, ledger, artifacts, redaction, audit sink.
  session: ["operations", "agent-core", "extensions"],
  tools: ["operations", "agent-core", "extensions", "session", "tree-sitter"],
  // The AI SDK bridge: the loop and tool contracts only, never a tool or an adapter.
  "ai-sdk": ["agent-core", "extensions"],
  // The AI SDK's sandbox session both ways: an adapter over a session (operations) and a
  // session over any adapter with the tools' path policy and mutation queue (session). Apart
  // from ai-sdk, so neither side brings `ai` to a package that does not need it.
  "ai-sandbox": ["operations", "agent-core", "extensions", "session"],
  cli: [
    "operations",
    "agent-core",
    "extensions",
    "session",
    "tools",
    "ai-sdk",
    "operations-local",
    "operations-ssh",
    "operations-docker",
    "operations-kubernetes",
    "tree-sitter",
    "shell-policy",
  ],
};

/**
 * Imports allowed in one file only: `tools` reaches the local adapter solely through its opt-in
 * `@tackle/tools/local` entry (operations-local is an optional peer), so an SSH- or Docker-only
 * install never loads it; and the shell policy solely through the loader that imports it when a
 * shell tool's default policy first checks a command (shell-policy is an optional peer), so a
 * program without a shell tool, or with its own policy, never loads it. Paths are relative to
 * the package directory.
 */
export const FILE_ALLOWED_IMPORTS = {
  tools: {
    "operations-local": ["src/local.ts"],
    "shell-policy": ["src/shell/policy-loader.ts"],
  },
};

const IMPORT_PATTERN =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bexport\s+\*\s+from\s*)["'](@tackle\/[a-z0-9-]+)(?:\/[^"']*)?["']/g;

/** Lists `@tackle/*` package names a source text imports. */
export function findTackleImports(source) {
  const found = new Set();
  for (const match of source.matchAll(IMPORT_PATTERN)) found.add(match[1].slice("@tackle/".length));
  return [...found];
}

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(m|c)?[jt]sx?$/.test(entry.name)) yield full;
  }
}

/** Returns one violation per forbidden import: `{ file, from, imports }`. */
export function checkLayers(packagesDir, allowed = ALLOWED_IMPORTS, fileAllowed = FILE_ALLOWED_IMPORTS) {
  const violations = [];
  for (const pkg of fs.readdirSync(packagesDir)) {
    const srcDir = path.join(packagesDir, pkg, "src");
    if (!fs.existsSync(srcDir)) continue;
    const permitted = allowed[pkg];
    for (const file of sourceFiles(srcDir)) {
      for (const imported of findTackleImports(fs.readFileSync(file, "utf8"))) {
        if (imported === pkg) continue;
        if (permitted?.includes(imported)) continue;
        const relative = path.relative(path.join(packagesDir, pkg), file).split(path.sep).join("/");
        if (fileAllowed[pkg]?.[imported]?.includes(relative)) continue;
        violations.push({ file, from: pkg, imports: imported });
      }
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "packages");
  const violations = checkLayers(root);
  for (const v of violations)
    console.error(
      `layering: ${path.relative(process.cwd(), v.file)} imports @tackle/${v.imports}, which ${v.from} may not import`,
    );
  if (violations.length > 0) process.exit(1);
  console.log("layering: ok");
}
