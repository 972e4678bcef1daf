// markdown-it plugin: a relative link from a page to a file outside docs/ (a source file, an
// example, a package README) points at that file on GitHub, so the same Markdown works when read
// on GitHub and on the site, and the site never has a link into nowhere.
import fs from "node:fs";
import path from "node:path";

/**
 * @param {import("markdown-it").default} md
 * @param {{ docsDir: string, repoRoot: string, repository: string }} options `repository` is the
 *   GitHub web address (`https://github.com/owner/name`)
 */
export function repoLinks(md, { docsDir, repoRoot, repository }) {
  md.core.ruler.push("tackle_repo_links", (state) => {
    const page = state.env.path ?? state.env.realPath;
    if (typeof page !== "string") return;
    for (const token of state.tokens) {
      for (const child of token.children ?? []) {
        if (child.type !== "link_open") continue;
        const href = child.attrGet("href");
        if (!href || /^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) continue;
        const [target, anchor] = href.split("#");
        const absolute = path.resolve(path.dirname(page), decodeURI(target ?? ""));
        if (absolute.startsWith(docsDir + path.sep) || absolute === docsDir) continue;
        const inRepo = path.relative(repoRoot, absolute);
        if (inRepo.startsWith("..")) continue;
        const kind = fs.existsSync(absolute) && fs.statSync(absolute).isDirectory() ? "tree" : "blob";
        child.attrSet(
          "href",
          `${repository}/${kind}/main/${inRepo.split(path.sep).join("/")}${anchor ? `#${anchor}` : ""}`,
        );
      }
    }
  });
}
