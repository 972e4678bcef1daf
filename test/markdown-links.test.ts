import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { webUrl } from "../scripts/package-metadata.mjs";
// @ts-expect-error plain ESM script without types
import { markdownFiles } from "../scripts/readme-code.mjs";

const root = path.resolve(import.meta.dirname, "..");
const repository = webUrl(
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).repository.url,
);
const files: string[] = markdownFiles(root);
const LINK = /\]\(([^)\s]+)\)/g;

/** The repository path a link names, or undefined for links elsewhere (npm, other sites). */
function repoPathOf(file: string, target: string): string | undefined {
  const withoutAnchor = target.split("#")[0] ?? "";
  for (const kind of ["blob", "tree"]) {
    const prefix = `${repository}/${kind}/main/`;
    if (withoutAnchor.startsWith(prefix)) return withoutAnchor.slice(prefix.length);
  }
  if (/^[a-z]+:/i.test(withoutAnchor) || withoutAnchor === "") return undefined;
  const repoPath = path.relative(root, path.resolve(root, path.dirname(file), withoutAnchor));
  // The API reference is generated when the site is built; the site test checks links into it.
  if (repoPath.startsWith(`docs${path.sep}reference${path.sep}`)) return undefined;
  return repoPath;
}

describe("Markdown of the READMEs and docs/", () => {
  it("links only to files and directories that exist in this repository", () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of fs.readFileSync(path.join(root, file), "utf8").matchAll(LINK)) {
        const repoPath = repoPathOf(file, target ?? "");
        if (repoPath !== undefined && !fs.existsSync(path.join(root, repoPath)))
          broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("links from a package README by absolute URL only: npm shows it away from this repository", () => {
    const relative: string[] = [];
    for (const file of files.filter((name) => name.startsWith("packages/"))) {
      for (const [, target] of fs.readFileSync(path.join(root, file), "utf8").matchAll(LINK)) {
        if (!/^(https?:|mailto:|#)/.test(target ?? "")) relative.push(`${file}: ${target}`);
      }
    }
    expect(relative).toEqual([]);
  });

  it("never refers to a DESIGN.md (the repository stands on its own; design notes live in docs/)", () => {
    expect(
      files.filter((file) => fs.readFileSync(path.join(root, file), "utf8").includes("DESIGN.md")),
    ).toEqual([]);
  });
});
