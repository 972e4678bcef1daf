// The two halves of `pnpm release` around the build and the checks (scripts/release.sh):
//   node scripts/release.mjs preflight            refuses pending changesets and 0.0.0 versions
//   node scripts/release.mjs publish [--dry-run]  packs every package once, inspects the tarballs,
//       asks the registry which versions are new, and publishes those tarballs (4 at a time). The dry run is the
//       same path with `npm publish --dry-run`: nothing is uploaded and no tag is made.
// The repository is the current directory. Exit codes: 0 done, 1 refused or failed, 2 usage.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inspectTarball, packPackages } from "./pack.mjs";
import { publishedPackageDirs } from "./package-metadata.mjs";

const run = promisify(execFile);

/** How many npm runs (`view`, `publish`) at once. */
const PUBLISH_CONCURRENCY = 4;

/** Runs `fn` on every item, at most `limit` at a time. */
async function eachLimited(items, limit, fn) {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
}

/** How long one registry request may take before the registry counts as unreachable. */
export const REGISTRY_TIMEOUT_MS = 10_000;
const NPM_NETWORK_FLAGS = [`--fetch-timeout=${REGISTRY_TIMEOUT_MS}`, "--fetch-retries=0"];
/**
 * A backstop for an npm process that hangs for another reason: npm's own fetch timeout bounds
 * the network wait, and starting npm alone can take many seconds on a loaded machine.
 */
const NPM_PROCESS_TIMEOUT_MS = 120_000;

function manifests(root) {
  return publishedPackageDirs(root).map((dirName) => ({
    dirName,
    ...JSON.parse(fs.readFileSync(path.join(root, "packages", dirName, "package.json"), "utf8")),
  }));
}

/** Why the tree at `root` is not ready to publish: one sentence per reason, empty when ready. */
export function preflightProblems(root) {
  const problems = [];
  const changesetDir = path.join(root, ".changeset");
  const pending = fs.existsSync(changesetDir)
    ? fs.readdirSync(changesetDir).filter((f) => f.endsWith(".md") && f !== "README.md")
    : [];
  if (pending.length > 0)
    problems.push(
      `${pending.length} pending changeset(s) (${pending.slice(0, 5).join(", ")}${pending.length > 5 ? ", ..." : ""}): ` +
        "run `pnpm version-packages`, review and commit the new versions and changelogs, then release.",
    );
  for (const manifest of manifests(root))
    if (manifest.version === "0.0.0")
      problems.push(`${manifest.name} is at version 0.0.0: run \`pnpm version-packages\` before releasing.`);
  return problems;
}

/** Asks the registry whether it answers at all, within {@link REGISTRY_TIMEOUT_MS}. */
async function registryReachable() {
  try {
    await run("npm", ["ping", ...NPM_NETWORK_FLAGS], { timeout: NPM_PROCESS_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}

/** `true` when `name@version` is already on the registry; throws when the registry did not say. */
async function isPublished(name, version) {
  try {
    const { stdout } = await run(
      "npm",
      ["view", `${name}@${version}`, "version", "--json", ...NPM_NETWORK_FLAGS],
      {
        timeout: NPM_PROCESS_TIMEOUT_MS,
      },
    );
    return stdout.trim().length > 0;
  } catch (error) {
    if (/E404|404 Not Found/.test(`${error.stdout ?? ""}${error.stderr ?? ""}`)) return false;
    const why = `${error.stderr ?? error.message ?? ""}`.trim().split("\n")[0];
    throw new Error(`the registry gave no answer for ${name}@${version} (${why})`, { cause: error });
  }
}

async function registryUrl() {
  const { stdout } = await run("npm", ["config", "get", "registry"]);
  return stdout.trim();
}

/**
 * Packs, inspects and publishes every package whose version the registry does not have yet, and
 * tags each upload `<name>@<version>`. `log` receives progress lines. Resolves to `{ ok,
 * published: [{name, version}] }`; `ok` is false when a tarball has problems, the registry is
 * unreachable for a real publish, or an upload failed. The dry run is the same path with
 * `npm publish --dry-run` and no tags; an unreachable registry is reported, not waited for.
 */
export async function publishPackages(root, { dryRun, log = console.log }) {
  const verb = dryRun ? "npm publish --dry-run" : "npm publish";
  // Asked first, so a real run without a network stops at once instead of after the packing.
  const registry = await registryUrl();
  const reachable = await registryReachable();
  if (!reachable && !dryRun) {
    log(
      `release: cannot reach the registry (${registry}); nothing was published. Check the network and retry.`,
    );
    return { ok: false, published: [] };
  }
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-release-"));
  try {
    // `pnpm check` (run by release.sh just before) lints tarballs packed from this same tree;
    // these, the ones uploaded, get the contents inspection again.
    const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
    const packed = packPackages(root, temp);
    let inspected = true;
    for (const pkg of packed) {
      const problems = inspectTarball(pkg.tarball, { license });
      for (const problem of problems) log(`release: ${pkg.name}: ${problem}`);
      inspected &&= problems.length === 0;
    }
    if (!inspected) return { ok: false, published: [] };
    log(`release: packed ${packed.length} packages; their contents check out`);

    let pending = packed;
    if (reachable) {
      const answers = [];
      await eachLimited(packed, PUBLISH_CONCURRENCY, async (pkg) => {
        const index = packed.indexOf(pkg);
        answers[index] = await isPublished(pkg.name, pkg.version).then(
          (value) => ({ status: "fulfilled", value }),
          (reason) => ({ status: "rejected", reason }),
        );
      });
      pending = [];
      for (const [i, pkg] of packed.entries()) {
        const answer = answers[i];
        if (answer.status === "fulfilled" && answer.value)
          log(`release: ${pkg.name}@${pkg.version} is on ${registry} already: skipped`);
        else if (answer.status === "fulfilled") pending.push(pkg);
        else if (dryRun) {
          log(`release: ${answer.reason.message}; the dry run treats it as new`);
          pending.push(pkg);
        } else {
          log(`release: ${answer.reason.message}; nothing was published. Retry when the registry answers.`);
          return { ok: false, published: [] };
        }
      }
    } else {
      log(`release: cannot reach the registry (${registry}); the dry run treats every version as new`);
    }

    // Uploads run a few at a time: each npm start costs seconds on a busy machine.
    const published = [];
    const failures = [];
    await eachLimited(pending, PUBLISH_CONCURRENCY, async (pkg) => {
      const args = ["publish", pkg.tarball, "--access", "public", ...NPM_NETWORK_FLAGS];
      if (dryRun) args.push("--dry-run");
      const tag = `${pkg.name}@${pkg.version}`;
      try {
        await run("npm", args, { cwd: temp });
      } catch (error) {
        failures.push(tag);
        log(`release: ${verb} ${tag} failed: ${String(error.stderr || error).trim()}`);
        return;
      }
      published.push({ name: pkg.name, version: pkg.version });
      if (dryRun) log(`release: ${verb} ${tag}: ok (would tag ${tag})`);
      else {
        try {
          await run("git", ["tag", tag], { cwd: root });
          log(`release: published ${tag} and tagged it`);
        } catch (error) {
          failures.push(tag);
          log(`release: published ${tag}, but git could not tag it: ${String(error.stderr || error).trim()}`);
        }
      }
    });
    if (failures.length > 0) return { ok: false, published };
    if (pending.length === 0) log("release: every version is on the registry already; nothing to publish");
    else if (!dryRun) log("release: push the tags with `git push --tags`");
    return { ok: true, published };
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...flags] = process.argv.slice(2);
  const unknown = flags.filter((f) => f !== "--dry-run");
  if (!["preflight", "publish"].includes(command) || unknown.length > 0) {
    console.error("usage: node scripts/release.mjs preflight | publish [--dry-run]");
    process.exit(2);
  }
  const root = process.cwd();
  if (command === "preflight") {
    const problems = preflightProblems(root);
    for (const problem of problems) console.error(`release: refused: ${problem}`);
    process.exit(problems.length > 0 ? 1 : 0);
  }
  const { ok } = await publishPackages(root, { dryRun: flags.includes("--dry-run") });
  process.exit(ok ? 0 : 1);
}
