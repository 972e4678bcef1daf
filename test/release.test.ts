import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startFakeRegistry } from "./fake-registry.js";
import { tempDirs } from "./temp-tree.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const releaseSh = path.join(root, "scripts", "release.sh");

const temps = tempDirs({ keep: "file" });

/** Runs a command; resolves `{ code, stdout, stderr }` whatever the exit code. */
async function attempt(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    const { stdout, stderr } = await run(command, args, {
      ...options,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/**
 * A repository with one package (`version`), optional pending changesets, and root scripts that
 * leave a marker when `pnpm build` runs, so a test sees whether the release got past its refusals.
 */
function fakeRepo(version: string, changesets: string[]): string {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({
      name: "fake",
      private: true,
      scripts: { build: "node -e \"require('fs').writeFileSync('built', '')\"", check: "exit 3" },
    }),
    "packages/a/package.json": JSON.stringify({ name: "@fake/a", version }),
    "packages/b/package.json": JSON.stringify({ name: "@fake/b", version: "0.0.0", private: true }),
    ".changeset/README.md": "# Changesets\n",
  };
  for (const name of changesets) files[`.changeset/${name}`] = '---\n"@fake/a": patch\n---\n\nA fix.\n';
  return temps.tree("tackle-release-fake-", files);
}

describe("pnpm release refuses before building", () => {
  it("with pending changesets, naming them and the next step", async () => {
    const repo = fakeRepo("1.2.0", ["brave-fix.md", "new-tool.md"]);
    const result = await attempt("bash", [releaseSh, "--dry-run"], {
      cwd: repo,
      env: { TACKLE_RELEASE_ROOT: repo },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("2 pending changeset(s) (brave-fix.md, new-tool.md)");
    expect(result.stderr).toContain("pnpm version-packages");
    expect(fs.existsSync(path.join(repo, "built"))).toBe(false);
  }, 60_000);

  it("with a package at 0.0.0 (private packages do not count), in the real run as in the dry run", async () => {
    const repo = fakeRepo("0.0.0", []);
    for (const args of [[releaseSh], [releaseSh, "--dry-run"]]) {
      const result = await attempt("bash", args, { cwd: repo, env: { TACKLE_RELEASE_ROOT: repo } });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        "release: refused: @fake/a is at version 0.0.0: run `pnpm version-packages` before releasing.",
      ]);
    }
    expect(fs.existsSync(path.join(repo, "built"))).toBe(false);
  }, 60_000);

  it("goes on to build and check once versioned (here the fake check fails, which stops it)", async () => {
    const repo = fakeRepo("1.2.0", []);
    const result = await attempt("bash", [releaseSh, "--dry-run"], {
      cwd: repo,
      env: { TACKLE_RELEASE_ROOT: repo },
    });
    expect(fs.existsSync(path.join(repo, "built"))).toBe(true);
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain("== publish");
  }, 120_000);

  it("rejects an unknown flag with exit code 2", async () => {
    const repo = fakeRepo("1.2.0", []);
    const result = await attempt("bash", [releaseSh, "--dryrun"], {
      cwd: repo,
      env: { TACKLE_RELEASE_ROOT: repo },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage: pnpm release [--dry-run]");
  }, 60_000);
});

/**
 * A copy of this repository as it would be after `pnpm version-packages`: the files git knows
 * (tracked or not ignored), the built dist/ directories, the packages' node_modules links, and
 * the root node_modules linked; then `changeset version` applied and the result committed.
 */
function versionedCopy(): string {
  const copy = temps.make("tackle-release-copy-");
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  for (const rel of listed.split("\0").filter(Boolean)) {
    if (!fs.existsSync(path.join(root, rel))) continue;
    fs.mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    fs.copyFileSync(path.join(root, rel), path.join(copy, rel));
  }
  for (const pkg of fs.readdirSync(path.join(root, "packages"))) {
    for (const dir of ["dist", "node_modules"]) {
      const from = path.join(root, "packages", pkg, dir);
      if (fs.existsSync(from))
        fs.cpSync(from, path.join(copy, "packages", pkg, dir), { recursive: true, verbatimSymlinks: true });
    }
  }
  fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
  execFileSync(path.join(root, "node_modules", ".bin", "changeset"), ["version"], {
    cwd: copy,
    stdio: "pipe",
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: copy, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "versioned");
  return copy;
}

function versionOf(repo: string, rel: string): string {
  return JSON.parse(fs.readFileSync(path.join(repo, rel, "package.json"), "utf8")).version;
}

describe("pnpm release after version-packages (a versioned copy of this repository)", () => {
  let copy: string;
  beforeAll(() => {
    copy = versionedCopy();
  }, 120_000);
  afterEach(() => {
    // Tags made by a real publish are checked by that test; each test starts without any.
    const tags = execFileSync("git", ["tag"], { cwd: copy, encoding: "utf8" }).split("\n").filter(Boolean);
    if (tags.length > 0) execFileSync("git", ["tag", "-d", ...tags], { cwd: copy, stdio: "pipe" });
  });

  it("version-packages versions every published package within 0.x, leaves the private examples alone, and passes preflight", async () => {
    expect(versionOf(copy, "examples")).toBe("0.0.0");
    for (const pkg of fs.readdirSync(path.join(copy, "packages"))) {
      expect(versionOf(copy, `packages/${pkg}`)).not.toBe("0.0.0");
      // Before 1.0 no changeset asks for a major; a peer dependency's bump must not force one.
      expect(versionOf(copy, `packages/${pkg}`), pkg).toMatch(/^0\./);
    }
    expect(fs.readdirSync(path.join(copy, ".changeset")).sort()).toEqual(["README.md", "config.json"]);
    const result = await attempt("node", ["scripts/release.mjs", "preflight"], { cwd: copy });
    expect(result).toMatchObject({ code: 0, stderr: "" });
  }, 60_000);

  it("the dry run checks and rehearses every package offline, saying it cannot reach the registry", async () => {
    const registry = `http://127.0.0.1:${await closedPort()}/`;
    const result = await attempt("node", ["scripts/release.mjs", "publish", "--dry-run"], {
      cwd: copy,
      env: { npm_config_registry: registry },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`release: cannot reach the registry (${registry})`);
    for (const pkg of fs.readdirSync(path.join(copy, "packages"))) {
      const { name, version } = JSON.parse(
        fs.readFileSync(path.join(copy, "packages", pkg, "package.json"), "utf8"),
      );
      expect(result.stdout).toContain(
        `release: npm publish --dry-run ${name}@${version}: ok (would tag ${name}@${version})`,
      );
    }
    expect(execFileSync("git", ["tag"], { cwd: copy, encoding: "utf8" })).toBe("");
  }, 300_000);

  it("the real run publishes nothing when the registry cannot be reached", async () => {
    const registry = `http://127.0.0.1:${await closedPort()}/`;
    const result = await attempt("node", ["scripts/release.mjs", "publish"], {
      cwd: copy,
      env: { npm_config_registry: registry },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`cannot reach the registry (${registry}); nothing was published`);
    expect(result.stdout).not.toContain("packed");
  }, 120_000);

  it("the real run uploads the versions the registry lacks, skips the one it has, and tags each upload", async () => {
    const operationsVersion = versionOf(copy, "packages/operations");
    const registry = await startFakeRegistry([{ name: "@tackle/operations", version: operationsVersion }]);
    const npmrc = path.join(temps.make("tackle-release-npmrc-"), ".npmrc");
    fs.writeFileSync(npmrc, `${registry.url.replace(/^http:/, "")}:_authToken=test-token\n`);
    try {
      const result = await attempt("node", ["scripts/release.mjs", "publish"], {
        cwd: copy,
        env: { npm_config_registry: registry.url, npm_config_userconfig: npmrc },
      });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain(
        `@tackle/operations@${operationsVersion} is on ${registry.url} already: skipped`,
      );
      const expected = fs
        .readdirSync(path.join(copy, "packages"))
        .filter((pkg) => pkg !== "operations")
        .map((pkg) => JSON.parse(fs.readFileSync(path.join(copy, "packages", pkg, "package.json"), "utf8")))
        .map(({ name, version }) => `${name}@${version}`)
        .sort();
      expect(registry.uploads.map((u) => `${u.name}@${u.version}`).sort()).toEqual(expected);
      const tags = execFileSync("git", ["tag"], { cwd: copy, encoding: "utf8" }).split("\n").filter(Boolean);
      expect(tags.sort()).toEqual(expected);
    } finally {
      await registry.close();
    }
  }, 300_000);
});
