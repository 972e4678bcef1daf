// `pnpm size`: packs every package, installs each a la carte combination into an empty npm
// project (as the pack-and-install test does), and prints what each install weighs: total size
// and files of node_modules, and its largest packages. A combination above its budget fails the
// run. Needs a build first (`pnpm build`); third-party packages come from the npm cache or registry.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COMBINATIONS, directorySize, installCombination, sharedNpmCache } from "./consumer-install.mjs";
import { packPackages } from "./pack.mjs";

const MB = 1024 * 1024;

/**
 * The most each combination may install, in MB. Set with headroom over the sizes measured when
 * the budget was written (docs/install-size.md); raise one only with a reason.
 */
export const BUDGETS_MB = {
  // 18.3 / 15.3 MB measured 2026-12-07 (were 15.7 / 12.8): the shell policy became its own
  // package with its grammar (2.4 MB) and the syntax check brought jsonc-parser, yaml and
  // smol-toml; raised from 17 / 14.
  "tools + operations-local": 20,
  "tools + operations-ssh": 17,
  "tools + operations-docker": 40,
  // 3.0 MB measured 2026-12-02: the TypeBox runtime bundled as one module (1.0 MB with the map
  // that embeds its sources) beside TypeBox itself, which users import for schemas.
  "agent-core": 3.5,
  // 73.3 MB measured with `tackle run --model` (the AI SDK and three provider packages, ~22 MB);
  // 95.7 MB on 2026-12-07: the syntax check's tree-sitter grammars (@vscode/tree-sitter-wasm,
  // 21.1 MB), which the CLI installs so every edit is checked; raised from 84.
  cli: 100,
  // 38.5 MB measured 2026-12-07: ai 7 (11 MB), @ai-sdk/* (8.3 MB) and zod 4 (8.2 MB, ai's peer).
  "ai-sdk": 45,
};

/** Top-level entries of node_modules (scoped packages expanded), largest first. */
function packageSizes(dir) {
  const base = path.join(dir, "node_modules");
  const sizes = [];
  for (const entry of fs.readdirSync(base)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@")
      ? fs.readdirSync(path.join(base, entry)).map((n) => `${entry}/${n}`)
      : [entry];
    for (const name of names) sizes.push({ name, ...directorySize(path.join(base, name)) });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes);
}

/** Installs every combination and returns `{ name, bytes, files, largest, budgetMb }` for each. */
export async function measureInstallSizes(root) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-install-size-"));
  try {
    const packed = packPackages(root, path.join(work, "tarballs"));
    const results = [];
    for (const [name, combination] of Object.entries(COMBINATIONS)) {
      const dir = path.join(work, name.replace(/[^a-z-]+/g, "-"));
      await installCombination(dir, { combination, packed, cache: sharedNpmCache(root) });
      const { bytes, files } = directorySize(path.join(dir, "node_modules"));
      results.push({
        name,
        bytes,
        files,
        largest: packageSizes(dir).slice(0, 4),
        budgetMb: BUDGETS_MB[name],
      });
    }
    return results;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const results = await measureInstallSizes(root);
  const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
  console.log("| combination | installed | files | budget | largest packages |");
  console.log("| --- | ---: | ---: | ---: | --- |");
  let over = false;
  for (const r of results) {
    const largest = r.largest.map((p) => `${p.name} ${mb(p.bytes)}`).join(", ");
    const flag = r.bytes > r.budgetMb * MB ? " OVER" : "";
    over ||= flag !== "";
    console.log(`| ${r.name} | ${mb(r.bytes)} | ${r.files} | ${r.budgetMb} MB${flag} | ${largest} |`);
  }
  if (over) {
    console.error("install size: a combination is over its budget (BUDGETS_MB in scripts/install-size.mjs)");
    process.exit(1);
  }
}
