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

/** Why the page at `pathname` (under `base`) with anchor `hash` does not resolve in `dir`, or undefined. */
function missing(
  dir: string,
  base: string,
  pathname: string,
  hash: string,
  ids: (file: string) => Set<string>,
): string | undefined {
  const file = fileFor(dir, base, pathname);
  if (!file) return "no such page";
  const anchor = decodeURIComponent(hash.slice(1));
  if (anchor && !ids(file).has(anchor)) return `no #${anchor} in ${relative(dir, file)}`;
  return undefined;
}

/**
 * Links to the published site (`siteUrl`) from Markdown outside it (the package READMEs on npm)
 * that would not resolve in the site built in `dir`: `file: url (reason)`.
 */
export function brokenSiteUrls(dir: string, siteUrl: string, markdown: Map<string, string>): string[] {
  const base = new URL(siteUrl).pathname;
  const ids = idCache();
  const broken: string[] = [];
  for (const [file, text] of markdown) {
    for (const [, href] of text.matchAll(/\]\((https?:[^)\s]+)\)/g)) {
      if (!href?.startsWith(siteUrl)) continue;
      const url = new URL(href);
      const why = missing(dir, base, url.pathname, url.hash, ids);
      if (why) broken.push(`${file}: ${href} (${why})`);
    }
  }
  return broken;
}

function idCache(): (file: string) => Set<string> {
  const ids = new Map<string, Set<string>>();
  return (file) => {
    let found = ids.get(file);
    if (!found) {
      const html = readFileSync(file, "utf8");
      found = new Set([...html.matchAll(ID)].map((match) => decodeEntities(match[1] ?? "")));
      ids.set(file, found);
    }
    return found;
  };
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
  const idsOf = idCache();
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
      const why = missing(dir, base, target.pathname, target.hash, idsOf);
      if (why) broken.push(`${page}: ${href} (${why})`);
    }
  }
  return { checked, broken };
}
