#!/usr/bin/env node
/**
 * Import cycles between the source files of one package. Type-only imports count too: a cycle
 * of types still means two modules that cannot be understood, moved or split one without the
 * other. Run directly it checks every package's `src/` and exits 1 when any cycle exists.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RELATIVE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** Relative module specifiers a source text imports or re-exports, statically or dynamically. */
export function findRelativeImports(source) {
  return [...new Set([...source.matchAll(RELATIVE_IMPORT)].map((match) => match[1]))];
}

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(m|c)?tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** The file a specifier names: `./x.js` is `./x.ts` in the sources, `./dir` its `index.ts`. */
function resolveSource(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [
    target.replace(/\.(m|c)?js$/, ".$1ts"),
    target,
    `${target}.ts`,
    path.join(target, "index.ts"),
  ];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/**
 * Strongly connected groups of more than one file (and files importing themselves) under
 * `srcDir`, each as sorted paths relative to it, in order of their first path. Tarjan's
 * algorithm, iterative.
 */
export function findImportCycles(srcDir) {
  const files = [...sourceFiles(srcDir)];
  const edges = new Map();
  for (const file of files) {
    const targets = findRelativeImports(fs.readFileSync(file, "utf8"))
      .map((specifier) => resolveSource(file, specifier))
      .filter((target) => target !== undefined);
    edges.set(file, [...new Set(targets)]);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      const selfImport = (edges.get(frame.node) ?? []).includes(frame.node);
      if (group.length > 1 || selfImport) {
        cycles.push(group.map((file) => path.relative(srcDir, file).split(path.sep).join("/")).sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "packages");
  let found = 0;
  for (const pkg of fs.readdirSync(packagesDir).sort()) {
    const srcDir = path.join(packagesDir, pkg, "src");
    if (!fs.existsSync(srcDir)) continue;
    for (const cycle of findImportCycles(srcDir)) {
      found++;
      console.error(
        `import cycle in ${pkg}/src, these files import each other: ${cycle.join(", ")} (move what they share to a module of its own)`,
      );
    }
  }
  if (found > 0) process.exit(1);
  console.log("import cycles: none");
}
