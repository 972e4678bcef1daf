// The site for agents that read documentation: `llms.txt` at the site's root (the llmstxt.org
// format: a title, a one-paragraph summary, then sections of links), and next to each page's
// HTML its Markdown (`getting-started.md`), with code imported from the examples written in and
// VitePress's own syntax (`{#anchor}`, `<<<`) taken out, so what an agent reads is what a person
// sees.
import fs from "node:fs";
import path from "node:path";
import { snippetText } from "./snippets.mjs";

const SNIPPET = /^<<< @\/(\S+?)(?:#(\w[\w-]*))?(?:\{[^}]*\})?(?: \[[^\]]*\])?\s*$/;

/** A page's Markdown as an agent should read it: imported code inlined, anchors and script blocks removed. */
export function pageMarkdown(docsDir, source) {
  const text = source
    .replace(/^<script setup>[\s\S]*?<\/script>\n*/m, "")
    .replace(/^(#{1,6} .*?) \{#[\w-]+\}$/gm, "$1");
  return text
    .split("\n")
    .map((line) => {
      const match = SNIPPET.exec(line);
      if (!match) return line;
      const file = path.resolve(docsDir, match[1] ?? "");
      const lang = path.extname(file).slice(1) || "text";
      return `\`\`\`${lang}\n${snippetText(file, match[2] ?? "")}\n\`\`\``;
    })
    .join("\n");
}

/**
 * Writes `llms.txt` and the Markdown of every page in `sections` (`{ text, items: [{ text,
 * link }] }`, the guide's sidebar) into `outDir`. `siteUrl` makes the links absolute.
 */
export function writeLlmsFiles({ docsDir, outDir, siteUrl, title, description, sections, extra = [] }) {
  const lines = [`# ${title}`, "", `> ${description}`, ""];
  lines.push(
    "Each link is the Markdown of a page of the site. Until the first release the packages are",
    `installed from tarballs built in a clone: see [Install](${siteUrl}install.md).`,
    "",
  );
  for (const section of [...sections, ...extra]) {
    lines.push(`## ${section.text}`, "");
    for (const item of section.items ?? []) {
      const page = item.link.replace(/^\//, "").replace(/\/$/, "/index");
      const source = path.join(docsDir, `${page}.md`);
      if (!fs.existsSync(source)) throw new Error(`llms.txt: no page ${source}`);
      const target = path.join(outDir, `${page}.md`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, pageMarkdown(docsDir, fs.readFileSync(source, "utf8")));
      lines.push(`- [${item.text}](${siteUrl}${page}.md)${item.summary ? `: ${item.summary}` : ""}`);
    }
    lines.push("");
  }
  fs.writeFileSync(path.join(outDir, "llms.txt"), lines.join("\n"));
}
