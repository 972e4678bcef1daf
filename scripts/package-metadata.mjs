// The npm metadata every published package carries, derived from one place: the `repository` of
// the root package.json. `node scripts/package-metadata.mjs` checks every package under packages/
// (run by `pnpm check`); `--write` fills in the derived fields (all but `keywords`).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's web address (`https://github.com/owner/name`) from a git URL. */
export function webUrl(gitUrl) {
  return gitUrl.replace(/^git\+/, "").replace(/\.git$/, "");
}

/**
 * Packages whose dependencies need a newer Node than the project's floor (`>=22`), with the
 * floor they declare instead: @kubernetes/client-node 2 loads undici 8, which needs 22.19.
 */
export const ENGINE_FLOORS = { "@tackle/operations-kubernetes": ">=22.19" };

/** The fields of `packages/<dirName>/package.json` that follow from the root's repository. */
export function derivedMetadata(rootManifest, dirName) {
  const url = rootManifest.repository?.url;
  if (typeof url !== "string") throw new Error("the root package.json needs repository.url");
  const web = webUrl(url);
  return {
    license: "MIT",
    repository: { type: "git", url, directory: `packages/${dirName}` },
    homepage: `${web}/tree/main/packages/${dirName}#readme`,
    bugs: { url: `${web}/issues` },
  };
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** Directories under packages/ that publish (have a package.json without `private: true`). */
export function publishedPackageDirs(root) {
  const base = path.join(root, "packages");
  return fs
    .readdirSync(base)
    .filter((name) => fs.existsSync(path.join(base, name, "package.json")))
    .filter((name) => readJson(path.join(base, name, "package.json")).private !== true)
    .sort();
}

/** One `{ package, message }` per missing or wrong piece of metadata, LICENSE file included. */
export function checkPackageMetadata(root) {
  const rootManifest = readJson(path.join(root, "package.json"));
  const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
  const problems = [];
  for (const dirName of publishedPackageDirs(root)) {
    const dir = path.join(root, "packages", dirName);
    const manifest = readJson(path.join(dir, "package.json"));
    const report = (message) => problems.push({ package: manifest.name ?? dirName, message });
    for (const [field, expected] of Object.entries(derivedMetadata(rootManifest, dirName))) {
      if (JSON.stringify(manifest[field]) !== JSON.stringify(expected))
        report(`${field} must be ${JSON.stringify(expected)} (node scripts/package-metadata.mjs --write)`);
    }
    const licensePath = path.join(dir, "LICENSE");
    if (!fs.existsSync(licensePath)) report("LICENSE is missing: copy the root LICENSE");
    else if (fs.readFileSync(licensePath, "utf8") !== license)
      report("LICENSE differs from the root LICENSE");
    const keywords = manifest.keywords;
    if (!Array.isArray(keywords) || keywords.length < 3 || !keywords.includes("tackle"))
      report('keywords must list at least three words, "tackle" among them');
    if (typeof manifest.description !== "string" || manifest.description.length === 0)
      report("description is missing");
    const floor = ENGINE_FLOORS[manifest.name] ?? ">=22";
    if (manifest.engines?.node !== floor) report(`engines.node must be "${floor}"`);
    if (manifest.publishConfig?.access !== "public") report('publishConfig.access must be "public"');
    const files = manifest.files ?? [];
    for (const needed of ["dist", "src"])
      if (!files.includes(needed)) report(`files must include "${needed}" (source maps point into src/)`);
  }
  return problems;
}

/** Writes the derived fields into every published package.json, keeping the field order. */
export function writePackageMetadata(root) {
  const rootManifest = readJson(path.join(root, "package.json"));
  for (const dirName of publishedPackageDirs(root)) {
    const file = path.join(root, "packages", dirName, "package.json");
    const manifest = readJson(file);
    Object.assign(manifest, derivedMetadata(rootManifest, dirName));
    fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(root, "packages", dirName, "LICENSE"));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (process.argv.includes("--write")) writePackageMetadata(root);
  const problems = checkPackageMetadata(root);
  for (const p of problems) console.error(`package metadata: ${p.package}: ${p.message}`);
  if (problems.length > 0) process.exit(1);
  console.log("package metadata: ok");
}
