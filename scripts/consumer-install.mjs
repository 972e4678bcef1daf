// Installs packed tarballs into an empty npm project, the way a user adds Tackle a la carte. Our
// packages come only from the tarballs (npm `overrides` send every @tackle/* range there, so a
// package pulls in exactly the Tackle packages it depends on); third-party packages come from the
// npm registry through one shared cache, preferring what the cache has. Used by the
// pack-and-install test and by the install-size script.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The a la carte combinations: what a user installs for each way of using Tackle (the
 * packages' READMEs name the same), and the third-party packages their own code imports.
 */
export const COMBINATIONS = {
  // These two run bash with its default command policy, so they add the policy package.
  "tools + operations-local": {
    tackle: ["@tackle/tools", "@tackle/operations-local", "@tackle/agent-core", "@tackle/shell-policy"],
  },
  "tools + operations-ssh": {
    tackle: ["@tackle/tools", "@tackle/operations-ssh", "@tackle/agent-core", "@tackle/shell-policy"],
  },
  // Read-only tools, no shell: no policy package.
  "tools + operations-docker": {
    tackle: ["@tackle/tools", "@tackle/operations-docker", "@tackle/agent-core"],
  },
  "agent-core": { tackle: ["@tackle/agent-core"], thirdParty: { "@sinclair/typebox": "^0.34.41" } },
  cli: { tackle: ["@tackle/cli"] },
  "ai-sdk": {
    tackle: ["@tackle/ai-sdk", "@tackle/agent-core"],
    thirdParty: { ai: "^7.0.0", "@ai-sdk/anthropic": "^4.0.0", "@sinclair/typebox": "^0.34.41" },
    // ai 7's declarations name json-schema's types without depending on them.
    devDependencies: { "@types/json-schema": "^7.0.15" },
  },
};

/** The npm cache every install shares (inside node_modules, so it goes when they go). */
export function sharedNpmCache(root) {
  return path.join(root, "node_modules", ".cache", "tackle-consumer-npm");
}

/**
 * Writes `dir/package.json` for `combination` and runs `npm install` there. `packed` is the
 * list {@link packPackages} returns. `devDependencies` go in as given (e.g. `@types/node` for a
 * TypeScript consumer). Install scripts are not run: none of our packages has one, and a native
 * build of an optional addon (ssh2's) would try to download Node headers.
 */
export async function installCombination(dir, { combination, packed, cache, devDependencies = {} }) {
  const spec = (name) => {
    const pkg = packed.find((p) => p.name === name);
    if (!pkg) throw new Error(`no tarball for ${name}`);
    return `file:${pkg.tarball}`;
  };
  const manifest = {
    name: "tackle-consumer",
    private: true,
    type: "module",
    dependencies: {
      ...Object.fromEntries(combination.tackle.map((name) => [name, spec(name)])),
      ...combination.thirdParty,
    },
    devDependencies: { ...devDependencies, ...combination.devDependencies },
    overrides: Object.fromEntries(packed.map((p) => [p.name, spec(p.name)])),
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const args = [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--cache",
    cache,
  ];
  try {
    await run("npm", args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`npm install failed in ${dir}: ${`${error.stdout ?? ""}${error.stderr ?? ""}`.trim()}`);
  }
  return dir;
}

/** Names of the packages installed under `dir/node_modules` (scoped ones as `@scope/name`). */
export function installedPackages(dir) {
  const base = path.join(dir, "node_modules");
  const names = [];
  const visit = (nodeModules, prefix) => {
    if (!fs.existsSync(nodeModules)) return;
    for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      if (entry.name.startsWith("@") && !prefix) {
        visit(path.join(nodeModules, entry.name), `${entry.name}/`);
        continue;
      }
      const pkgDir = path.join(nodeModules, entry.name);
      names.push(`${prefix}${entry.name}`);
      visit(path.join(pkgDir, "node_modules"), "");
    }
  };
  visit(base, "");
  return [...new Set(names)].sort();
}

/** Bytes and files under a directory (file sizes, links not followed). */
export function directorySize(dir) {
  let bytes = 0;
  let files = 0;
  const visit = (current) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) {
        bytes += fs.statSync(full).size;
        files++;
      }
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return { bytes, files };
}
