// `pnpm pack:all`: the way to install Tackle before its first release. Packs every published
// package (as a release packs it, see pack.mjs) into one folder under names without a version
// (`tarballs/tackle-tools.tgz`), so the install lines in the docs stay the same from one version
// to the next, and prints, for each package, the one `npm install` line that names every tarball
// it needs: npm cannot find an `@tackle/*` dependency on the registry before the release, so each
// must be named. `node scripts/pack-all.mjs [--out DIR]` (default: `tarballs/` in the repository).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packPackages } from "./pack.mjs";
import { publishedPackageDirs } from "./package-metadata.mjs";

/** The tarball's name in the folder: `@tackle/operations-local` -> `tackle-operations-local.tgz`. */
export function tarballName(packageName) {
  return `${packageName.replace(/^@/, "").replace("/", "-")}.tgz`;
}

function manifests(root) {
  return new Map(
    publishedPackageDirs(root).map((dir) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, "packages", dir, "package.json"), "utf8"));
      return [manifest.name, manifest];
    }),
  );
}

/**
 * The Tackle packages an install of `names` needs: the names themselves and every `@tackle/*`
 * package they depend on, directly or not (dependencies and non-optional peer dependencies), in
 * a stable order (the asked ones first, then the rest by name).
 */
export function tackleClosure(root, names) {
  const all = manifests(root);
  const needed = new Set();
  const visit = (name) => {
    if (needed.has(name)) return;
    const manifest = all.get(name);
    if (!manifest) throw new Error(`${name} is not a published package of this repository`);
    needed.add(name);
    const optional = manifest.peerDependenciesMeta ?? {};
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optional[peer]?.optional);
    for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...peers])
      if (dep.startsWith("@tackle/")) visit(dep);
  };
  for (const name of names) visit(name);
  const rest = [...needed].filter((name) => !names.includes(name)).sort();
  return [...new Set(names), ...rest];
}

/**
 * What a user installs for each way of using Tackle: the Tackle packages asked for (the shell
 * policy with the tools: the bash tool checks each command with it, an optional peer of the
 * tools), and the third-party packages their code imports (docs/install.md names the same).
 */
export const INSTALLS = {
  "tools on this machine": {
    tackle: ["@tackle/tools", "@tackle/agent-core", "@tackle/operations-local", "@tackle/shell-policy"],
  },
  "tools over SSH": {
    tackle: ["@tackle/tools", "@tackle/agent-core", "@tackle/operations-ssh", "@tackle/shell-policy"],
  },
  "tools in Docker": {
    tackle: ["@tackle/tools", "@tackle/agent-core", "@tackle/operations-docker", "@tackle/shell-policy"],
  },
  "tools on Kubernetes": {
    tackle: ["@tackle/tools", "@tackle/agent-core", "@tackle/operations-kubernetes", "@tackle/shell-policy"],
    thirdParty: ["@kubernetes/client-node"],
  },
  "the AI SDK loop": {
    tackle: [
      "@tackle/ai-sdk",
      "@tackle/agent-core",
      "@tackle/tools",
      "@tackle/extensions",
      "@tackle/operations-local",
      "@tackle/shell-policy",
    ],
    thirdParty: ["ai", "@ai-sdk/anthropic"],
  },
  "the agent loop alone": { tackle: ["@tackle/agent-core"], thirdParty: ["@sinclair/typebox"] },
  "the CLI": { tackle: ["@tackle/cli"] },
};

/**
 * Packs every published package into `outDir` under version-free names (the folder is emptied of
 * older tarballs first). Returns `{ name, tarball }` per package.
 */
export function packAll(root, outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of fs.readdirSync(outDir))
    if (file.endsWith(".tgz")) fs.rmSync(path.join(outDir, file), { force: true });
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-pack-all-"));
  try {
    return packPackages(root, temp).map((pkg) => {
      const tarball = path.join(outDir, tarballName(pkg.name));
      fs.copyFileSync(pkg.tarball, tarball);
      return { name: pkg.name, tarball };
    });
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * The `npm install` line of one of {@link INSTALLS} from the tarballs in `dir`: every needed
 * tarball named, one per line after the first, then the third-party packages.
 */
export function installLine(root, dir, { tackle, thirdParty = [] }) {
  const words = [
    ...tackleClosure(root, tackle).map((name) => path.join(dir, tarballName(name))),
    ...(thirdParty.length > 0 ? [thirdParty.join(" ")] : []),
  ];
  return `npm install ${words.join(" \\\n  ")}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const at = process.argv.indexOf("--out");
  const outDir = path.resolve(at === -1 ? path.join(root, "tarballs") : process.argv[at + 1]);
  const packed = packAll(root, outDir);
  console.log(`Packed ${packed.length} packages into ${outDir}.`);
  console.log("Install in your project (each line names every tarball that use needs):");
  for (const [use, install] of Object.entries(INSTALLS)) {
    console.log(`\n# ${use}\n${installLine(root, outDir, install)}`);
  }
}
