// Runs a command (`vitest run`, `node bench/x.mjs`) on a Node that @kubernetes/client-node 2
// loads on (its undici needs >= 22.19). On an older machine Node it takes TACKLE_NODE22 (a node
// binary), else a Node 22 kept under the repository's node_modules/.cache, installed there once
// from the npm registry (`npm install node@22`, the way the machine notes bring a newer Node).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FLOOR = [22, 19];
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const cacheDir = path.join(repoRoot, "node_modules", ".cache", "tackle-node22");

function recentEnough(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > FLOOR[0] || (major === FLOOR[0] && minor >= FLOOR[1]);
}

function versionOf(node) {
  const result = spawnSync(node, ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function findNode() {
  if (recentEnough(process.version)) return process.execPath;
  const given = process.env.TACKLE_NODE22;
  if (given) {
    const version = versionOf(given);
    if (version && recentEnough(version)) return given;
    throw new Error(
      `TACKLE_NODE22=${given} is not a Node >= ${FLOOR.join(".")} (${version ?? "does not run"})`,
    );
  }
  const cached = path.join(cacheDir, "node_modules", ".bin", "node");
  const version = fs.existsSync(cached) ? versionOf(cached) : undefined;
  if (version && recentEnough(version)) return cached;
  console.error(`on-node22: this is Node ${process.version}; installing node@22 into ${cacheDir} from npm`);
  fs.mkdirSync(cacheDir, { recursive: true });
  const install = spawnSync(
    "npm",
    ["install", "--prefix", cacheDir, "--no-save", "--no-audit", "--no-fund", "node@22"],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const installed = fs.existsSync(cached) ? versionOf(cached) : undefined;
  if (install.status !== 0 || !installed || !recentEnough(installed)) {
    throw new Error(
      `on-node22: could not install node@22 into ${cacheDir}; set TACKLE_NODE22 to a Node >= 22.19`,
    );
  }
  return cached;
}

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("usage: on-node22.mjs vitest|node ARGS...");
const node = findNode();
// vitest runs as a script of the chosen node, so its workers run on that node too.
const argv =
  command === "vitest"
    ? [
        path.join(path.dirname(fileURLToPath(import.meta.resolve("vitest/package.json"))), "vitest.mjs"),
        ...args,
      ]
    : args;
const result = spawnSync(node, argv, { stdio: "inherit", cwd: process.cwd() });
process.exit(result.status ?? 1);
