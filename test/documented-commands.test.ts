/**
 * The `pnpm <name>` commands the README and the docs' README tell a person to type run this
 * repository's scripts. pnpm answers some names itself before it looks at the scripts (`pnpm docs`
 * opens the package's home page), so a script with such a name cannot be run as documented.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const scripts = Object.keys(
  (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);

/** pnpm's own commands that a script of the same name does not override (pnpm 10). */
const SHADOWING_COMMANDS = new Set(
  "add audit bin config create deploy dlx docs env exec fetch help home import init install licenses link list ls outdated pack patch prune publish rebuild remove root run server setup store unlink update why".split(
    " ",
  ),
);

/** Every `pnpm <word>` in code spans and blocks of the page. */
function documentedCommands(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(/(?:^|`|\n)\s*pnpm ([a-z][\w:-]*)/g)].map((match) => match[1] as string);
}

describe("documented pnpm commands", () => {
  const pages = ["README.md", "docs/README.md", "docs/getting-started.md", "docs/install.md"];
  const documented = [...new Set(pages.flatMap(documentedCommands))];

  it("names each of the repository's own scripts it documents as a script, never as a name pnpm takes", () => {
    const ours = documented.filter((name) => scripts.includes(name));
    expect(ours).toEqual(
      expect.arrayContaining(["test", "check", "bench", "docs:build", "docs:dev", "pack:all"]),
    );
    for (const name of ours) expect(SHADOWING_COMMANDS.has(name), `pnpm ${name}`).toBe(false);
    for (const name of scripts) expect(SHADOWING_COMMANDS.has(name), `script "${name}"`).toBe(false);
  });

  it("documents no command that is neither a script nor pnpm's own", () => {
    const unknown = documented.filter(
      (name) => !scripts.includes(name) && !SHADOWING_COMMANDS.has(name) && name !== "test",
    );
    expect(unknown).toEqual([]);
  });
});
