// Every internal link of the built site, and whether its page and anchor exist.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileFor } from "./static-server.js";

const LINK = /<a\s[^>]*?href="([^"]*)"/g;
const ID = /\sid="([^"]*)"/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The `.html` files of the built site, relative to `dir`. */
export function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html"))
    .sort();
}

/**
 * The broken internal links of the site in `dir` served under `base`: `page: href (reason)` for
 * a link to a page that does not exist or to an anchor its page does not have.
 */
export function brokenLinks(dir: string, base: string): { checked: number; broken: string[] } {
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string): Set<string> => {
    let found = ids.get(file);
    if (!found) {
      const html = readFileSync(file, "utf8");
      found = new Set([...html.matchAll(ID)].map((match) => decodeEntities(match[1] ?? "")));
      ids.set(file, found);
    }
    return found;
  };
  const broken: string[] = [];
  let checked = 0;
  for (const page of htmlFiles(dir)) {
    const pageFile = join(dir, page);
    const pageUrl = new URL(page, `http://site${base}`);
    for (const match of readFileSync(pageFile, "utf8").matchAll(LINK)) {
      const href = decodeEntities(match[1] ?? "");
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("http://site")) continue;
      const target = new URL(href, pageUrl);
      checked++;
      const file = fileFor(dir, base, target.pathname);
      if (!file) {
        broken.push(`${page}: ${href} (no such page)`);
        continue;
      }
      const anchor = decodeURIComponent(target.hash.slice(1));
      if (anchor && !idsOf(file).has(anchor))
        broken.push(`${page}: ${href} (no #${anchor} in ${relative(dir, file)})`);
    }
  }
  return { checked, broken };
}
