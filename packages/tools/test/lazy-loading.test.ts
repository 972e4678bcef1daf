import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * What a process loads: every module counts towards start-up time and peak memory (Node's ESM
 * loader costs tens of KB of RSS per module), so dependencies only some calls need are loaded by
 * those calls. These run the built package (`dist/`) in a fresh Node process.
 */
const run = promisify(execFile);
const dist = (file: string) => pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;
const recorder = fileURLToPath(new URL("fixtures/record-modules.mjs", import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-lazy-"));
  await writeFile(join(dir, "a.txt"), "one\ntwo\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `code` (an ES module body) in a fresh process and returns the modules it loaded. */
async function modulesLoadedBy(code: string): Promise<string[]> {
  const log = join(dir, `modules-${Math.random().toString(36).slice(2)}.log`);
  await writeFile(log, "");
  // Run from the package, so bare imports resolve as they do for the package's code.
  await run(process.execPath, ["--import", recorder, "--input-type=module", "-e", code], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, TACKLE_MODULE_LOG: log },
  });
  return (await readFile(log, "utf8")).split("\n").filter(Boolean);
}

const fromPackage = (modules: string[], name: string) =>
  modules.filter((path) => path.includes(`/node_modules/${name}/`));
/** The tree-sitter runtime (shipped in `@tackle/tree-sitter`'s `wasm/` directory) the shell policy parses on. */
const treeSitter = (modules: string[]) => modules.filter((path) => path.endsWith("/wasm/tree-sitter.cjs"));

/** The built files a package's `exports` name. */
async function entryPointsOf(packageDir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"));
  return Object.values(manifest.exports as Record<string, string | { import?: string }>)
    .map((target) => (typeof target === "string" ? target : target.import))
    .filter((file): file is string => typeof file === "string" && file.endsWith(".js"))
    .map((file) => join(packageDir, file));
}

const createAll = `
  const tools = await import(${JSON.stringify(dist("index.js"))});
  const local = await import(${JSON.stringify(dist("local.js"))});
  const context = local.createLocalToolContext({ cwd: ${JSON.stringify("DIR")} });
  globalThis.created = tools.createAllTools({ context });
`;

describe("lazy loading", () => {
  it("importing the tools and creating all of them loads no glob, ignore-file, diff, extension-loader or parser library", async () => {
    const modules = await modulesLoadedBy(createAll.replace('"DIR"', JSON.stringify(dir)));
    expect(modules.length).toBeGreaterThan(0);
    for (const name of ["picomatch", "ignore", "diff", "jiti"]) {
      expect(fromPackage(modules, name), name).toEqual([]);
    }
    expect(treeSitter(modules), "tree-sitter").toEqual([]);
  });

  it("loads each Tackle package as its bundled entry points and their shared chunks, not a module per source file", async () => {
    const modules = await modulesLoadedBy(createAll.replace('"DIR"', JSON.stringify(dir)));
    const tackle = modules
      .map((entry) => (entry.startsWith("file:") ? fileURLToPath(entry) : entry))
      .filter((path) => /[/\\](?:packages|@tackle)[/\\][^/\\]+[/\\]dist[/\\]/.test(path));
    expect(tackle.length).toBeGreaterThan(0);
    const perSourceFile: string[] = [];
    for (const path of tackle) {
      const packageDir = path.slice(0, path.lastIndexOf(`${sep}dist${sep}`));
      const entries = await entryPointsOf(packageDir);
      if (!entries.includes(path) && !path.includes(`${sep}dist${sep}chunks${sep}`)) perSourceFile.push(path);
    }
    expect(perSourceFile).toEqual([]);
  });

  it("the calls that need them load them", async () => {
    const modules = await modulesLoadedBy(`
      ${createAll.replace('"DIR"', JSON.stringify(dir))}
      const { invokeTool } = await import("@tackle/agent-core");
      const edit = await invokeTool(created.edit, { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] });
      const find = await invokeTool(created.find, { pattern: "x/**/*.txt" });
      // A $: plain words, quoted or not, are decided without the parser (the policy's fast path).
      const bash = await invokeTool(created.bash, { command: "echo $HOME" });
      if (edit.isError || find.isError || bash.isError)
        throw new Error(JSON.stringify([edit.content, find.content, bash.content]));
      await context.dispose();
    `);
    expect(fromPackage(modules, "diff").length).toBeGreaterThan(0);
    expect(fromPackage(modules, "picomatch").length).toBeGreaterThan(0);
    // The shell policy (`@tackle/shell-policy`) parses the command on the shared runtime.
    expect(treeSitter(modules).length).toBeGreaterThan(0);
  });

  it("a first bash call of plain words (`true`) loads no parser: the policy decides it without one", async () => {
    const modules = await modulesLoadedBy(`
      ${createAll.replace('"DIR"', JSON.stringify(dir))}
      const { invokeTool } = await import("@tackle/agent-core");
      const bash = await invokeTool(created.bash, { command: "true" });
      if (bash.isError) throw new Error(JSON.stringify(bash.content));
      await context.dispose();
    `);
    expect(modules.some((path) => /[/\\]shell-policy[/\\]/.test(path))).toBe(true);
    expect(treeSitter(modules)).toEqual([]);
  });
});
