import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSshServer, type TestSshServer } from "../packages/operations-ssh/test/support/ssh-server.mjs";
// @ts-expect-error plain ESM script without types
import {
  COMBINATIONS,
  installCombination,
  installedPackages,
  sharedNpmCache,
} from "../scripts/consumer-install.mjs";
// @ts-expect-error plain ESM script without types
import { inspectPackageDir, packPackages } from "../scripts/pack.mjs";

/**
 * The "done when": every package packed as a release packs it, installed with npm into
 * empty projects a la carte, a strict TypeScript consumer type-checked against each install
 * (skipLibCheck: false) and run, and the installed contents checked.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-pack-install-"));

interface Packed {
  name: string;
  version: string;
  tarball: string;
}
let packed: Packed[] = [];
/** One install per combination, started together in beforeAll (at most 3 npm runs at once). */
const installs = new Map<string, Promise<string>>();

/** Runs tasks with at most `concurrency` of them at once. */
function limiter(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

beforeAll(() => {
  packed = packPackages(root, path.join(work, "tarballs"));
  const limit = limiter(3);
  for (const name of Object.keys(COMBINATIONS) as (keyof typeof COMBINATIONS)[]) {
    const install = limit(() => install_(name));
    install.catch(() => undefined); // the test that awaits it reports the failure
    installs.set(name, install);
  }
  // Packing every package runs one `pnpm pack` after another (about 40 s alone here, and several
  // times that while other suites build and test on the same two cores).
}, 600_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
}, 120_000);

/**
 * Time for one case, its install included: the installs run three at a time in the order of
 * COMBINATIONS, so the last case (cli, the largest install) waits for the others; on a loaded
 * 2-core machine that took over 300 s.
 */
const CASE_MS = 600_000;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ["node"],
    rootDir: "src",
    outDir: "dist",
  },
  include: ["src"],
};

/** Installs a combination, with `@types/node` for the TypeScript consumer. */
function install_(name: keyof typeof COMBINATIONS): Promise<string> {
  return installCombination(path.join(work, name.replace(/[^a-z-]+/g, "-")), {
    combination: COMBINATIONS[name],
    packed,
    cache: sharedNpmCache(root),
    devDependencies: { "@types/node": "^22.19.0" },
  });
}

/** The installed combination with the consumer's source and a strict tsconfig (lib ES2022 only, no DOM). */
async function consumerProject(name: keyof typeof COMBINATIONS, consumer: string) {
  const installed = installs.get(name);
  if (!installed) throw new Error(`no install started for ${name}`);
  const dir = await installed;
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.copyFileSync(path.join(root, "test", "consumers", consumer), path.join(dir, "src", "main.ts"));
  fs.copyFileSync(path.join(root, "test", "consumers", "shared.ts"), path.join(dir, "src", "shared.ts"));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
  return dir;
}

/** Type-checks and compiles the consumer; on failure the test shows every TypeScript error. */
async function compile(dir: string): Promise<void> {
  try {
    await run(process.execPath, [tsc, "-p", dir, "--pretty", "false"], { cwd: dir });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    expect.fail(`tsc found errors in the consumer at ${dir}:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

async function runConsumer(dir: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const { stdout } = await run(process.execPath, [path.join(dir, "dist", "main.js")], {
    cwd: dir,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

/**
 * The tree-sitter files installed: the runtime (in @tackle/tree-sitter) and the two grammars the
 * shell policy parses with (in @tackle/shell-policy), nothing else; and no package of prebuilt
 * grammars installed.
 */
function expectOnlyUsedGrammars(dir: string): void {
  const files = (name: string) =>
    fs.readdirSync(path.join(dir, "node_modules", "@tackle", name, "wasm")).sort();
  expect(files("tree-sitter")).toEqual(["LICENSE", "README.md", "tree-sitter.cjs", "tree-sitter.wasm"]);
  expect(files("shell-policy")).toEqual([
    "LICENSE",
    "README.md",
    "tree-sitter-bash.wasm",
    "tree-sitter-powershell.wasm",
  ]);
  expect(installedPackages(dir).filter((name: string) => name.includes("tree-sitter-wasm"))).toEqual([]);
}

/** Every installed @tackle package: LICENSE, README, maps that resolve, no test files. */
function expectTackleContents(dir: string): string[] {
  const tackle = installedPackages(dir).filter((name: string) => name.startsWith("@tackle/"));
  for (const name of tackle)
    expect(inspectPackageDir(path.join(dir, "node_modules", name), { license }), name).toEqual([]);
  return tackle;
}

describe("packed packages installed a la carte", () => {
  it(
    "tools + operations-local: installs, type-checks strictly, runs every kind of tool here",
    async () => {
      const dir = await consumerProject("tools + operations-local", "local.ts");
      expect(expectTackleContents(dir)).toEqual(
        expect.arrayContaining(["@tackle/tools", "@tackle/operations-local", "@tackle/agent-core"]),
      );
      expect(installedPackages(dir)).toContain("@vscode/ripgrep");
      expectOnlyUsedGrammars(dir);
      await compile(dir);
      expect(await runConsumer(dir)).toEqual({ found: true, ran: true });
    },
    CASE_MS,
  );

  describe("tools + operations-ssh", () => {
    let server: TestSshServer | undefined;
    let remoteDir: string;
    beforeAll(async () => {
      server = await startSshServer();
      remoteDir = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-pack-install-ssh-"));
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      if (remoteDir) fs.rmSync(remoteDir, { recursive: true, force: true });
    });

    it(
      "installs, type-checks strictly, runs the tools against a real sshd",
      async () => {
        if (!server) throw new Error("sshd did not start: see the beforeAll error");
        const dir = await consumerProject("tools + operations-ssh", "ssh.ts");
        expect(expectTackleContents(dir)).toEqual([
          "@tackle/agent-core",
          "@tackle/extensions",
          "@tackle/operations",
          "@tackle/operations-ssh",
          "@tackle/session",
          "@tackle/shell-policy",
          "@tackle/tools",
          "@tackle/tree-sitter",
        ]);
        // No local adapter and no ripgrep binary for an SSH-only user.
        expect(installedPackages(dir).filter((name: string) => name.includes("ripgrep"))).toEqual([]);
        // Nor grammars the shell policy does not parse with (bash runs below, so the two it uses load).
        expectOnlyUsedGrammars(dir);
        await compile(dir);
        const result = await runConsumer(dir, {
          TACKLE_SSH_HOST: server.host,
          TACKLE_SSH_PORT: String(server.port),
          TACKLE_SSH_USER: server.username,
          TACKLE_SSH_KEY: server.privateKeyPath,
          TACKLE_SSH_KNOWN_HOSTS: server.knownHostsPath,
          TACKLE_SSH_DIR: remoteDir,
        });
        expect(result).toEqual({ read: true, found: true, ran: true });
        expect(fs.readFileSync(path.join(remoteDir, "remote.txt"), "utf8")).toBe("written over ssh\n");
      },
      CASE_MS,
    );
  });

  it(
    "tools + operations-docker: installs and type-checks without dockerode's types",
    async () => {
      const dir = await consumerProject("tools + operations-docker", "docker.ts");
      const installed = installedPackages(dir);
      expect(installed).toContain("dockerode");
      expect(installed).not.toContain("@types/dockerode");
      // No shell tool in this program: the command policy and its grammars are not installed.
      expect(installed).not.toContain("@tackle/shell-policy");
      expectTackleContents(dir);
      await compile(dir);
    },
    CASE_MS,
  );

  it(
    "agent-core alone: nothing else of Tackle, type-checks, runs the loop with the faux model",
    async () => {
      const dir = await consumerProject("agent-core", "agent-core.ts");
      expect(expectTackleContents(dir)).toEqual(["@tackle/agent-core"]);
      await compile(dir);
      expect(await runConsumer(dir)).toEqual({ direct: { sum: 5 }, answer: "The sum is 42.", toolRan: true });
    },
    CASE_MS,
  );

  it(
    "cli: the binary runs a tool, and the programmatic entry type-checks without the DOM lib",
    async () => {
      const dir = await consumerProject("cli", "cli.ts");
      expectTackleContents(dir);
      await compile(dir);
      expect(await runConsumer(dir)).toEqual({ kind: "ssh", codes: [0, 1, 2] });
      const { stdout } = await run(path.join(dir, "node_modules", ".bin", "tackle"), [
        "tool",
        "ls",
        '{"path":"."}',
        "--cwd",
        dir,
        // The test's own audit file, not the default one in the home directory.
        "--audit",
        path.join(dir, "audit.jsonl"),
      ]);
      expect(stdout).toContain("package.json");
      expect(fs.readFileSync(path.join(dir, "audit.jsonl"), "utf8")).toContain('"tool":"ls"');
    },
    CASE_MS,
  );

  it(
    "ai-sdk with ai 7: no type error beyond ai's own, compiles with what the README names, runs the loop and generateText",
    async () => {
      const dir = await consumerProject("ai-sdk", "ai-sdk.ts");
      fs.copyFileSync(
        path.join(root, "test", "consumers", "ai-alone.ts"),
        path.join(dir, "src", "ai-alone.ts"),
      );
      expect(expectTackleContents(dir)).toEqual([
        "@tackle/agent-core",
        "@tackle/ai-sdk",
        "@tackle/extensions",
        "@tackle/operations",
      ]);
      // ai 7's declarations need the DOM lib (fetch types) under any settings. One program holds
      // the consumer and `ai` alone (ai-alone.ts): each of ai's declaration files is checked
      // once, and every error must lie in ai's own declarations (ai, @ai-sdk/*), none in
      // Tackle's or in the consumer's code. (One compile instead of one per file: ai's
      // declarations make each compile take minutes on a loaded machine.)
      const strict = { lib: ["ES2022", "DOM"] };
      const errors = await typeErrors(dir, ["ai-alone.ts", "main.ts"], strict);
      const aisOwn = (error: string) => /^node_modules\/(ai|@ai-sdk\/[^/]+)\//.test(error);
      expect(errors.filter((error) => !aisOwn(error))).toEqual([]);
      console.info(`[pack-install] ai 7 strict: ${errors.length} errors, all in ai's own declarations`);
      // The README's advice for a strict consumer: the DOM lib, @types/json-schema, and
      // exactOptionalPropertyTypes off (ai's own declarations break it) or skipLibCheck.
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          ...CONSUMER_TSCONFIG,
          compilerOptions: {
            ...CONSUMER_TSCONFIG.compilerOptions,
            ...strict,
            exactOptionalPropertyTypes: false,
          },
        }),
      );
      await compile(dir);
      expect(await runConsumer(dir)).toEqual({ answer: "The sum is 42.", sdk: "The sum is 42.", steps: 2 });
    },
    // Its install comes last, and ai's declarations make each of its two compiles the slowest of
    // the file (two minutes each on the loaded 2-core machine).
    CASE_MS * 2,
  );
});

/**
 * tsc's errors for files of the consumer under the strict options plus `overrides`, as
 * "file(line,col): TScode" (where, not the message), the file relative to the consumer.
 */
async function typeErrors(dir: string, files: string[], overrides: object): Promise<string[]> {
  const config = path.join(dir, "tsconfig.errors.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...CONSUMER_TSCONFIG.compilerOptions, ...overrides, noEmit: true },
      files: files.map((file) => path.join("src", file)),
    }),
  );
  try {
    await run(process.execPath, [tsc, "-p", config, "--pretty", "false"], { cwd: dir });
    return [];
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? "";
    return [...out.matchAll(/^(\S.*?\(\d+,\d+\)): error (TS\d+)/gm)].map((m) => `${m[1]}: ${m[2]}`);
  }
}
