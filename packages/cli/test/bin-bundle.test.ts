import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, EXIT, tackle } from "./helpers.js";

const DIST = path.dirname(BIN);
const CHUNKS = path.join(DIST, "bin-chunks");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-bin-bundle-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * Runs `tackle ...args` with a module loader hook that writes the URL of every ES module Node
 * loads to a file, and returns those URLs (`node:` builtins left out).
 */
async function loadedModules(args: string[]): Promise<{ code: number | null; urls: string[] }> {
  const log = path.join(work, `loaded-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  const hooks = path.join(work, "hooks.mjs");
  fs.writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (!url.startsWith("node:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
  );
  const register = path.join(work, "register.mjs");
  fs.writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", pathToFileURL(register).href, BIN, ...args], {
      cwd: work,
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
  const urls = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  return { code, urls };
}

describe("the bundled binary", () => {
  it("tackle tool read loads only the binary's own files: no package from node_modules, no other command", async () => {
    fs.writeFileSync(path.join(work, "file.txt"), "one\ntwo\n");
    const { code, urls } = await loadedModules(["tool", "read", '{"path":"file.txt"}', "--cwd", work]);
    expect(code).toBe(EXIT.ok);
    const files = urls.filter((url) => url !== pathToFileURL(path.join(work, "register.mjs")).href);
    expect(files).toContain(pathToFileURL(BIN).href);
    const outside = files.filter((url) => !url.startsWith(pathToFileURL(DIST).href));
    expect(outside).toEqual([]);
    const otherCommands = files.filter((url) => /\/bin-chunks\/(mcp|run|audit)-[^/]*\.js$/.test(url));
    expect(otherCommands).toEqual([]);
  });

  it("prints the package's version from inside a chunk", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(DIST, "..", "package.json"), "utf8"));
    const result = await tackle(["--version"]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it("ships a source map for every file, with the text of each source embedded", () => {
    const files = [BIN, ...fs.readdirSync(CHUNKS).map((name) => path.join(CHUNKS, name))].filter((file) =>
      file.endsWith(".js"),
    );
    expect(files.length).toBeGreaterThan(1);
    const sources = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      expect(text, file).toContain(`//# sourceMappingURL=${path.basename(file)}.map`);
      const map = JSON.parse(fs.readFileSync(`${file}.map`, "utf8")) as {
        sources: string[];
        sourcesContent: (string | null)[];
      };
      map.sources.forEach((source, i) => {
        expect(typeof map.sourcesContent[i], `${file}: ${source}`).toBe("string");
        sources.add(path.resolve(path.dirname(file), source));
      });
    }
    // The TypeScript sources, this package's own and its Tackle dependencies', not their dist/.
    expect(sources).toContain(path.join(DIST, "..", "src", "commands", "tool.ts"));
    expect(
      [...sources].some((source) =>
        source.endsWith(path.join("@tackle", "tools", "src", "tools", "read.ts")),
      ),
    ).toBe(true);
  });
});
