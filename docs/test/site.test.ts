// The documentation site as a reader meets it: built from scratch, every internal link and anchor
// resolving, and the main pages working in a real headless Chromium (Debian's, no download).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, docsDir, outDir, referenceDir, repoRoot, siteUrl } from "../.vitepress/site.mjs";
import { publicEntryPoints } from "../.vitepress/typedoc/entry-points.mjs";
import { isTestingModule } from "../.vitepress/typedoc/reference-index.mjs";
import { brokenLinks, brokenSiteUrls } from "./site-links.js";
import { type StaticSite, serveSite } from "./static-server.js";

const run = promisify(execFile);
const CHROMIUM = "/usr/bin/chromium";
/** Test artifacts (gitignored): the home page's screenshot. */
const ARTIFACTS = join(docsDir, "test-results");

let site: StaticSite;
let browser: Browser;

beforeAll(async () => {
  await run("pnpm", ["run", "site:build"], { cwd: docsDir, maxBuffer: 64 * 1024 * 1024 });
  site = await serveSite(outDir, base);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens `path` (relative to the site) and returns the page with the errors it reports. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => errors.push(`request failed: ${request.url()}`));
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(new URL(path, site.url).href, { waitUntil: "networkidle" });
  return { page, errors };
}

describe("the documentation site", () => {
  it("links only to pages and anchors that exist", () => {
    const { checked, broken } = brokenLinks(outDir, base);
    expect(checked).toBeGreaterThan(1000);
    expect(broken).toEqual([]);
  });

  it("is where the package READMEs link: every link to the site resolves, anchors included", () => {
    const readmes = new Map<string, string>();
    for (const dir of readdirSync(join(repoRoot, "packages"))) {
      const file = join(repoRoot, "packages", dir, "README.md");
      if (existsSync(file)) readmes.set(`packages/${dir}/README.md`, readFileSync(file, "utf8"));
    }
    const linking = [...readmes.values()].filter((text) => text.includes(siteUrl));
    expect(linking.length).toBe(readmes.size);
    expect(brokenSiteUrls(outDir, siteUrl, readmes)).toEqual([]);
  });

  it.each([
    ["", "Tackle"],
    ["getting-started.html", "Getting started"],
    ["architecture.html", "Architecture: packages and layers"],
    ["tools.html", "@tackle/tools in detail"],
    ["concepts.html", "Concepts"],
    ["guides/operations-adapter.html", "Write an Operations adapter"],
    ["benchmarks.html", "Benchmarks"],
    ["reference/@tackle/tools.html", "@tackle/tools"],
  ])("opens /%s without console errors", async (path, heading) => {
    const { page, errors } = await open(path);
    try {
      await expect.poll(() => page.locator("h1").first().textContent()).toContain(heading);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("draws the benchmark charts into the page (inline SVG, nothing fetched)", async () => {
    const { page, errors } = await open("benchmarks.html");
    try {
      expect(await page.locator("svg.bench-chart").count()).toBeGreaterThan(3);
      // Every ratio bar is labelled with its ratio.
      expect(await page.locator("svg.bench-chart .value").first().textContent()).toMatch(/^[\d.]+x$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows the layers picture on the concepts page (an SVG file, loaded and drawn)", async () => {
    const { page, errors } = await open("concepts.html");
    try {
      const picture = page.locator('img[alt^="The layers"]');
      await picture.waitFor();
      expect(await picture.getAttribute("src")).toMatch(/layers.*\.svg$/);
      await expect
        .poll(() =>
          picture.evaluate((img) => {
            // Runs in the page: the element is an <img>.
            const image = img as unknown as { complete: boolean; naturalWidth: number };
            return image.complete ? image.naturalWidth : 0;
          }),
        )
        .toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("keeps a screenshot of the home page", async () => {
    const { page } = await open("");
    try {
      mkdirSync(ARTIFACTS, { recursive: true });
      const png = await page.screenshot({ path: join(ARTIFACTS, "home.png"), fullPage: true });
      expect(png.subarray(1, 4).toString()).toBe("PNG");
    } finally {
      await page.close();
    }
  });

  it("navigates from the home page to a guide and along the sidebar", async () => {
    const { page, errors } = await open("");
    try {
      await page.getByRole("link", { name: "Get started" }).first().click();
      await page.waitForURL(/getting-started\.html$/);
      await expect.poll(() => page.locator("h1").first().textContent()).toContain("Getting started");
      await page.locator(".VPSidebar").getByRole("link", { name: "Architecture" }).click();
      await page.waitForURL(/architecture\.html$/);
      await expect.poll(() => page.locator("h1").first().textContent()).toContain("Architecture");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("finds createTools with the search box and opens its API reference", async () => {
    const { page, errors } = await open("getting-started.html");
    try {
      await page.locator(".VPNavBarSearch").getByRole("button").click();
      await page.locator("#localsearch-input").fill("createTools");
      const hit = page.locator("#localsearch-list .result", { hasText: "createTools" }).first();
      await hit.waitFor();
      await hit.click();
      await page.waitForURL(/reference\/@tackle\/tools\.html#createtools/);
      // The heading, then its signature and parameters up to the next member's heading.
      const heading = page.locator("h3#createtools");
      await heading.waitFor();
      expect(await heading.textContent()).toContain("createTools()");
      const section = await heading.evaluate((h) => {
        const parts: string[] = [];
        for (
          let node = h.nextElementSibling;
          node && !/^H[23]$/.test(node.tagName);
          node = node.nextElementSibling
        )
          parts.push(node.textContent ?? "");
        return parts.join("\n");
      });
      expect(section).toContain("createTools<N>(options): ToolSet<N>");
      expect(section).toMatch(/Parameters[\s\S]*options[\s\S]*CreateToolsOptions/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("fits every prose page into 1280 px: no sideways scroll of the page, a code block or a table", async () => {
    const pages = prosePages(outDir);
    expect(pages.length).toBeGreaterThan(40);
    const wide: string[] = [];
    // One tab for all pages: a new one per page costs more than the check.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (const path of pages) {
        await page.goto(new URL(path, site.url).href, { waitUntil: "load" });
        const found = await page.evaluate(() => {
          // Runs in the page.
          const doc = (globalThis as unknown as { document: PageDocument }).document;
          const out: string[] = [];
          if (doc.documentElement.scrollWidth > doc.documentElement.clientWidth) out.push("the page");
          for (const element of doc.querySelectorAll(".vp-doc pre, .vp-doc table, .vp-doc p, .vp-doc li")) {
            if (element.checkVisibility() && element.scrollWidth > element.clientWidth + 1)
              out.push(`${element.tagName.toLowerCase()}: ${(element.textContent ?? "").slice(0, 60)}`);
          }
          return out;
        });
        for (const what of found) wide.push(`${path}: ${what}`);
      }
    } finally {
      await page.close();
    }
    expect(wide).toEqual([]);
  }, 600_000);

  it("opens the API reference with where to start, one line per module, and the test modules apart", () => {
    const index = readFileSync(join(referenceDir, "index.md"), "utf8");
    const start = index.indexOf("## Start here");
    const modules = index.indexOf("## Modules");
    const testing = index.indexOf("## For tests and adapter authors");
    expect(start).toBeGreaterThan(-1);
    expect(modules).toBeGreaterThan(start);
    expect(testing).toBeGreaterThan(modules);
    for (const { name } of publicEntryPoints(repoRoot)) {
      const row = new RegExp(
        `^\\| \\[${name.replace(/[/.-]/g, "\\$&")}\\]\\([^)]*\\) \\| \\S.* \\|$`,
        "m",
      ).exec(index);
      expect(row, name).not.toBeNull();
      expect(index.indexOf(row?.[0] ?? "") > testing, name).toBe(isTestingModule(name));
    }
  });

  it("has no empty reference page, and puts a module's functions before its types", () => {
    const empty: string[] = [];
    for (const { name } of publicEntryPoints(repoRoot)) {
      const text = readFileSync(join(referenceDir, `${name}.md`), "utf8");
      // Past the breadcrumb and the title, a page holds a description or members.
      const body = text.slice(text.indexOf(`# ${name}`) + name.length + 2).trim();
      if (body.length < 80) empty.push(name);
      const functions = text.indexOf("\n## Functions");
      const types = text.indexOf("\n## Interfaces");
      if (functions !== -1 && types !== -1) expect(functions, name).toBeLessThan(types);
    }
    expect(empty).toEqual([]);
  });

  it("serves llms.txt and each listed page as Markdown, code from the examples written in", async () => {
    const llms = await (await fetch(new URL("llms.txt", site.url))).text();
    expect(llms).toMatch(/^# Tackle\n\n> /);
    const links = [...llms.matchAll(/\]\((https:[^)]+\.md)\)/g)].map((m) => m[1] ?? "");
    expect(links.length).toBeGreaterThan(40);
    for (const link of links) {
      const response = await fetch(new URL(link.slice(siteUrl.length), site.url));
      expect(response.status, link).toBe(200);
      const text = await response.text();
      expect(text, link).not.toMatch(/^<<< |#region|\{#[\w-]+\}$/m);
    }
    const local = await (await fetch(new URL("guides/local.md", site.url))).text();
    expect(local).toContain('import { createLocalToolContext } from "@tackle/tools/local";');
  });

  it.each(["ssh", "docker", "mcp"])("answers a search for %s with a guide first", async (term) => {
    const { page, errors } = await open("getting-started.html");
    try {
      await page.locator(".VPNavBarSearch").getByRole("button").click();
      await page.locator("#localsearch-input").fill(term);
      const first = page.locator("#localsearch-list .result").first();
      await first.waitFor();
      expect(await first.getAttribute("href")).toMatch(/\/guides\//);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** What the in-page checks use of the DOM (the test compiles without the DOM lib). */
interface PageDocument {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): Iterable<{
    tagName: string;
    textContent: string | null;
    scrollWidth: number;
    clientWidth: number;
    checkVisibility(): boolean;
  }>;
}

/** The built pages written from docs/ (the API reference left out), as paths relative to the site. */
function prosePages(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return ["reference", "assets"].includes(entry.name) ? [] : prosePages(dir, path);
    return entry.name.endsWith(".html") && entry.name !== "404.html" ? [path] : [];
  });
}
