import fs from "node:fs";
import path from "node:path";
import { type DefaultTheme, defineConfig } from "vitepress";
import { writeLlmsFiles } from "./llms.mjs";
import { repoLinks } from "./repo-links.mjs";
import { base, docsDir, outDir, referenceDir, repoRoot, repository, siteUrl } from "./site.mjs";
import { completeSnippets } from "./snippets.mjs";
import { publicEntryPoints } from "./typedoc/entry-points.mjs";
import { isTestingModule } from "./typedoc/reference-index.mjs";

/** The API reference's sidebar, written by typedoc-vitepress-theme next to the pages. */
function referenceSidebar(): DefaultTheme.SidebarItem[] {
  const file = path.join(referenceDir, "typedoc-sidebar.json");
  if (!fs.existsSync(file))
    throw new Error("docs/reference is missing: run `pnpm docs:build` (TypeDoc runs first)");
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The reference's sidebar: the modules a program imports, then those for tests, apart. */
function referenceGroups(): DefaultTheme.SidebarItem[] {
  const items = referenceSidebar();
  const testing = items.filter((item) => isTestingModule(item.text ?? ""));
  return [
    { text: "API reference", link: "/reference/", items: items.filter((item) => !testing.includes(item)) },
    { text: "For tests and adapter authors", items: testing },
  ];
}

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: "Introduction",
    items: [
      { text: "Getting started", link: "/getting-started" },
      { text: "Install", link: "/install" },
      { text: "Concepts", link: "/concepts" },
    ],
  },
  {
    text: "Guides",
    items: [
      { text: "Work on this machine", link: "/guides/local" },
      { text: "Add a tool", link: "/guides/add-a-tool" },
      { text: "Write an Operations adapter", link: "/guides/operations-adapter" },
      { text: "Add an adapter (with commands)", link: "/guides/add-an-adapter" },
      { text: "Write an extension", link: "/guides/extension" },
      { text: "Run over SSH and in Docker", link: "/guides/remote" },
      { text: "Run many sessions on Kubernetes", link: "/guides/kubernetes" },
      { text: "Serve the tools over MCP", link: "/guides/mcp" },
      { text: "Use a real model", link: "/guides/real-model" },
      { text: "Configure the workspace policy", link: "/guides/workspace-policy" },
      { text: "Audit and recover", link: "/guides/audit" },
    ],
  },
  {
    text: "In detail",
    items: [
      { text: "Architecture", link: "/architecture" },
      { text: "The public API", link: "/api" },
      { text: "Operations", link: "/operations" },
      { text: "Local adapter", link: "/operations-local" },
      { text: "SSH adapter", link: "/operations-ssh" },
      { text: "Docker adapter", link: "/operations-docker" },
      { text: "Kubernetes adapter", link: "/operations-kubernetes" },
      { text: "Agent core", link: "/agent-core" },
      { text: "Extensions", link: "/extensions" },
      { text: "Session runtime", link: "/session" },
      { text: "Tools", link: "/tools" },
      { text: "File tools", link: "/tools-file-tools" },
      { text: "Edit", link: "/tools-edit" },
      { text: "apply_patch (V4A)", link: "/tools-apply-patch" },
      { text: "OpenAI apply_patch and shell", link: "/tools-native-openai" },
      { text: "Anthropic text editor and bash", link: "/tools-native-anthropic" },
      { text: "Feedback after a change", link: "/tools-feedback" },
      { text: "Grep and find", link: "/tools-search" },
      { text: "Bash and PowerShell", link: "/tools-shell" },
      { text: "Redaction", link: "/redaction" },
      { text: "Paths", link: "/paths" },
      { text: "Sandbox", link: "/sandbox" },
      { text: "Write safety", link: "/write-safety" },
      { text: "Audit trail", link: "/audit" },
      { text: "AI SDK", link: "/ai-sdk" },
      { text: "AI SDK sandboxes", link: "/ai-sandbox" },
      { text: "CLI", link: "/cli" },
    ],
  },
  {
    text: "Project",
    items: [
      { text: "Benchmarks", link: "/benchmarks" },
      { text: "Performance", link: "/performance" },
      { text: "Install size", link: "/install-size" },
      { text: "Node versions", link: "/node-versions" },
      { text: "Releasing", link: "/releasing" },
    ],
  },
];

const description =
  "The tool layer for coding agents in TypeScript: one set of tools on this machine, over SSH and in Docker.";

export default defineConfig({
  title: "Tackle",
  description,
  // llms.txt and each page's Markdown, for agents reading the docs.
  buildEnd(site) {
    writeLlmsFiles({
      docsDir,
      outDir: site.outDir,
      siteUrl,
      title: "Tackle",
      description,
      sections: guide as { text: string; items: { text: string; link: string }[] }[],
      extra: [
        {
          text: "API reference",
          items: [
            { text: "API reference index", link: "/reference/" },
            ...publicEntryPoints(repoRoot).map(({ name }) => ({ text: name, link: `/reference/${name}` })),
          ],
        },
      ],
    });
  },
  base,
  outDir,
  cacheDir: path.join(docsDir, ".vitepress", "cache"),
  // The folder's README is for people browsing the repository, not a page of the site.
  srcExclude: ["README.md", "**/node_modules/**"],
  lastUpdated: false,
  head: [["link", { rel: "icon", type: "image/svg+xml", href: `${base}logo.svg` }]],
  // A dead internal link fails the build (the site test also checks anchors).
  ignoreDeadLinks: false,
  markdown: {
    config(md) {
      repoLinks(md, { docsDir, repoRoot, repository });
      completeSnippets(md);
    },
  },
  themeConfig: {
    logo: "/logo.svg",
    nav: [
      { text: "Guide", link: "/getting-started" },
      { text: "Concepts", link: "/concepts" },
      { text: "API", link: "/reference/" },
      { text: "Benchmarks", link: "/benchmarks" },
    ],
    sidebar: {
      "/reference/": referenceGroups(),
      "/": guide,
    },
    search: {
      provider: "local",
      options: {
        miniSearch: {
          searchOptions: {
            // A guide answers "how do I use X" better than a page of reference entries about X:
            // guides first, the API reference's property entries last. (Serialized into the
            // page, so it must not use anything from this module.)
            boostDocument(id: string) {
              if (id.includes("/guides/") || id.includes("/getting-started")) return 3;
              if (id.includes("/reference/")) return 0.5;
              return 1;
            },
          },
        },
      },
    },
    socialLinks: [{ icon: "github", link: repository }],
    outline: { level: [2, 3] },
  },
});
