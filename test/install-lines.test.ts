/**
 * The install lines of the docs and READMEs work before the first release: a line that installs
 * tarballs names every Tackle package the named ones need (npm cannot fetch them from the
 * registry yet), the install page holds exactly the lines `pnpm pack:all` prints, and a page that
 * shows a registry line says when it applies.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { INSTALLS, installLine, tackleClosure, tarballName } from "../scripts/pack-all.mjs";

const root = path.resolve(import.meta.dirname, "..");
const TARBALLS = "~/tackle/tarballs";

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "reference", ".vitepress"].includes(entry.name) ? [] : markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

const pages = [
  "README.md",
  ...markdownFiles(path.join(root, "docs")).map((file) => path.relative(root, file)),
  ...fs
    .readdirSync(path.join(root, "packages"))
    .map((dir) => `packages/${dir}/README.md`)
    .filter((file) => fs.existsSync(path.join(root, file))),
];
const textOf = (page: string) => fs.readFileSync(path.join(root, page), "utf8");

/** Every `npm install ...` command of a page, continuation lines joined. */
function installCommands(text: string): string[] {
  return [...text.replace(/\\\n\s*/g, "").matchAll(/npm install [^\n`|]*/g)].map((m) => m[0].trim());
}

const packageOfTarball = new Map<string, string>(
  tackleClosure(root, [
    "@tackle/cli",
    "@tackle/operations-ssh",
    "@tackle/operations-docker",
    "@tackle/operations-kubernetes",
  ]).map((name: string) => [tarballName(name), name]),
);

describe("install lines", () => {
  it("name every Tackle tarball the installed packages need", () => {
    const lines = pages.flatMap((page) =>
      installCommands(textOf(page))
        .filter((line) => line.includes(".tgz"))
        .map((line) => ({ page, line })),
    );
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const { page, line } of lines) {
      const named = [...line.matchAll(/([\w-]+\.tgz)/g)].map((m) => packageOfTarball.get(m[1] ?? ""));
      expect(named, `${page}: ${line}`).not.toContain(undefined);
      const missing = tackleClosure(root, named).filter((name: string) => !named.includes(name));
      expect(missing, `${page}: ${line}`).toEqual([]);
    }
  });

  it("of the install page are the ones pnpm pack:all prints", () => {
    const page = textOf("docs/install.md");
    for (const install of Object.values(INSTALLS))
      expect(page).toContain(installLine(root, TARBALLS, install));
    const start = textOf("docs/getting-started.md");
    expect(start).toContain(
      installLine(root, TARBALLS, { ...INSTALLS["tools on this machine"], thirdParty: ["tsx"] }),
    );
  });

  it("from the registry come with a word on when they apply", () => {
    for (const page of pages) {
      const text = textOf(page);
      const registry = installCommands(text).filter((line) => /npm install (-g )?@tackle\//.test(line));
      if (registry.length === 0) continue;
      expect(text, page).toMatch(/first release/i);
    }
  });
});
