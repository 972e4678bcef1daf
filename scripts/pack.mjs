// Packs the published packages with `pnpm pack` (workspace ranges replaced, `files` applied: the
// very tarballs a release uploads), inspects what is inside and lints them with publint and
// are-the-types-wrong. `node scripts/pack.mjs` does it for every package and fails on any problem
// (run by `pnpm check`); the release script and the pack-and-install test import the same functions.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publishedPackageDirs } from "./package-metadata.mjs";

const run = promisify(execFile);

/**
 * Packs `packages/<dirName>` for each name into `destDir`. Returns `{ name, version, dirName,
 * tarball }` per package, tarball being an absolute path.
 */
export function packPackages(root, destDir, dirNames = publishedPackageDirs(root)) {
  fs.mkdirSync(destDir, { recursive: true });
  // One recursive pnpm run packs them all: a pnpm start per package costs seconds each.
  const filters = dirNames.flatMap((dirName) => ["--filter", `./packages/${dirName}`]);
  execFileSync("pnpm", ["-r", ...filters, "pack", "--pack-destination", destDir], {
    cwd: root,
    stdio: "pipe",
  });
  return dirNames.map((dirName) => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(root, "packages", dirName, "package.json"), "utf8"),
    );
    const file = `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`;
    const tarball = path.join(destDir, file);
    if (!fs.existsSync(tarball)) throw new Error(`pnpm pack wrote no ${file} for ${manifest.name}`);
    return { name: manifest.name, version: manifest.version, dirName, tarball };
  });
}

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const MAP_COMMENT = /^\s*\/\/# sourceMappingURL=(\S+)\s*$/m;

/**
 * Problems with an unpacked package directory: a missing or different LICENSE, no README, a
 * source map whose `sources` are not in the package (nor embedded in the map), a
 * `sourceMappingURL` naming a missing map, a `workspace:` range left in package.json, or a test
 * file. Paths in messages are relative to the package.
 */
export function inspectPackageDir(dir, { license } = {}) {
  const problems = [];
  const files = new Set([...walk(dir)].map((file) => path.relative(dir, file)));
  if (!files.has("LICENSE")) problems.push("LICENSE is missing");
  else if (license !== undefined && fs.readFileSync(path.join(dir, "LICENSE"), "utf8") !== license)
    problems.push("LICENSE differs from the repository's LICENSE");
  if (!files.has("README.md")) problems.push("README.md is missing");
  const manifest = fs.readFileSync(path.join(dir, "package.json"), "utf8");
  if (manifest.includes('"workspace:')) problems.push("package.json still has workspace: ranges");
  for (const file of [...files].sort()) {
    if (/\.test\.|\.test-d\./.test(path.basename(file))) problems.push(`${file}: a test file is shipped`);
    if (file.endsWith(".map")) {
      let map;
      try {
        map = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
      } catch {
        problems.push(`${file}: not a JSON source map`);
        continue;
      }
      const base = path.join(path.dirname(file), map.sourceRoot ?? "");
      (map.sources ?? []).forEach((source, i) => {
        // A source whose text is embedded in the map (a bundle's code from other packages) is
        // readable without the file.
        if (typeof map.sourcesContent?.[i] === "string") return;
        const target = path.normalize(path.join(base, source));
        if (!files.has(target)) problems.push(`${file}: points at ${target}, which is not in the package`);
      });
    } else if (/\.(m|c)?js$|\.d\.(m|c)?ts$/.test(file)) {
      const comment = MAP_COMMENT.exec(fs.readFileSync(path.join(dir, file), "utf8"));
      if (comment && !comment[1].startsWith("data:")) {
        const target = path.normalize(path.join(path.dirname(file), comment[1]));
        if (!files.has(target))
          problems.push(`${file}: names the source map ${target}, which is not in the package`);
      }
    }
  }
  return problems;
}

/** Unpacks a tarball (npm's `package/` prefix removed) into `dest`. */
export function unpackTarball(tarball, dest) {
  fs.mkdirSync(dest, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dest, "--strip-components=1"]);
  return dest;
}

/** {@link inspectPackageDir} on a tarball, unpacked into a temp directory that is removed after. */
export function inspectTarball(tarball, options = {}) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-unpacked-"));
  try {
    return inspectPackageDir(unpackTarball(tarball, temp), options);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * publint (strict) and are-the-types-wrong (ESM only) on a tarball: the very bytes a release
 * uploads. Resolves to their output when either complains, else an empty list.
 */
export async function lintTarball(root, tarball) {
  const problems = [];
  const bin = (name) => path.join(root, "node_modules", ".bin", name);
  const tools = [
    [bin("publint"), ["run", "--strict", "--level", "warning", "--pack", "false", tarball]],
    [bin("attw"), [tarball, "--profile", "esm-only", "--format", "ascii"]],
  ];
  for (const [command, args] of tools) {
    try {
      await run(command, args, { cwd: root });
    } catch (error) {
      problems.push(`${path.basename(command)}: ${`${error.stdout ?? ""}${error.stderr ?? ""}`.trim()}`);
    }
  }
  return problems;
}

/**
 * Every check of a packed package: its contents ({@link inspectTarball}) and its lints
 * ({@link lintTarball}), two packages at a time. Logs one line per package (or per problem) and
 * resolves to `true` when all pass.
 */
export async function checkTarballs(root, packed, { log = console.log } = {}) {
  const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
  const queue = [...packed];
  let ok = true;
  const worker = async () => {
    for (let pkg = queue.shift(); pkg !== undefined; pkg = queue.shift()) {
      const problems = [
        ...inspectTarball(pkg.tarball, { license }),
        ...(await lintTarball(root, pkg.tarball)),
      ];
      for (const problem of problems) log(`pack: ${pkg.name}: ${problem}`);
      const kb = (fs.statSync(pkg.tarball).size / 1024).toFixed(0);
      if (problems.length === 0) log(`pack: ${pkg.name}@${pkg.version} ok (${kb} KB packed)`);
      ok &&= problems.length === 0;
    }
  };
  await Promise.all([worker(), worker()]);
  return ok;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dest = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-pack-"));
  let ok = false;
  try {
    ok = await checkTarballs(root, packPackages(root, dest));
  } finally {
    fs.rmSync(dest, { recursive: true, force: true });
  }
  if (!ok) process.exit(1);
}
