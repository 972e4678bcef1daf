// The CLI's pages name what the binary offers: every command of `tackle --help` and every flag of
// each command's `--help` (generated from the option table the parser uses) is in docs/cli.md and
// the package README, so a flag added or renamed in the CLI cannot leave the pages behind.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, "..", "..");
const manifest = createRequire(import.meta.url).resolve("@tackle/cli/package.json");
const bin = join(dirname(manifest), JSON.parse(await readFile(manifest, "utf8")).bin.tackle);

async function help(...args: string[]): Promise<string> {
  return (await run(process.execPath, [bin, ...args, "--help"])).stdout;
}

/** The commands `tackle --help` lists (`tool`, `mcp`, `run`, `audit`). */
function commandsOf(text: string): string[] {
  return [...new Set([...text.matchAll(/^ {2}tackle (\w+)/gm)].map((m) => m[1] ?? ""))];
}

/** The long flags an options table lists (`--cwd`, `--audit`, ...), without `--help`. */
function flagsOf(text: string): string[] {
  const options = text.slice(text.indexOf("Options:"));
  return [...options.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)]
    .map((m) => m[1] ?? "")
    .filter((flag) => flag !== "--help");
}

describe("the CLI's pages", () => {
  const pages = {
    "docs/cli.md": join(repo, "docs", "cli.md"),
    "packages/cli/README.md": join(repo, "packages", "cli", "README.md"),
  };

  it("name every command and every flag the binary's help lists", async () => {
    const commands = commandsOf(await help());
    expect(commands).toEqual(expect.arrayContaining(["tool", "mcp", "run", "audit"]));
    const missing: string[] = [];
    for (const [name, file] of Object.entries(pages)) {
      const text = await readFile(file, "utf8");
      for (const command of commands) {
        if (!text.includes(`tackle ${command}`)) missing.push(`${name}: tackle ${command}`);
        for (const flag of flagsOf(await help(command)))
          if (!new RegExp(`${flag}(?![\\w-])`).test(text)) missing.push(`${name}: tackle ${command} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("puts every command's section under Commands on the docs page, none under another section", async () => {
    const text = await readFile(pages["docs/cli.md"], "utf8");
    let section = "";
    const misplaced: string[] = [];
    for (const [, level, title] of text.matchAll(/^(#{2,4}) (.+)$/gm)) {
      if (level === "##") section = title ?? "";
      else if (/^`tackle \w+/.test(title ?? "") && section !== "Commands")
        misplaced.push(`${title} under ${section}`);
    }
    expect(misplaced).toEqual([]);
    expect(text.indexOf("## Use it")).toBeLessThan(text.indexOf("## Commands"));
    expect(text.indexOf("## When to choose this")).toBeLessThan(text.indexOf("## Commands"));
  });
});
