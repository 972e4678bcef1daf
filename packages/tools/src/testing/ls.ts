/** Conformance section for the ls tool: runs unchanged on any `Operations`. */
import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { createLsToolDefinition } from "../tools/ls.js";
import type { ToolsConformanceEnv } from "./env.js";
import { unmarkedTextOf } from "./marker.js";

/** The text shown, without the ls tool-output marker (asserted by its own test). */
const shownOf = (outcome: ToolOutcome) => unmarkedTextOf(outcome, "ls");

/** The ls tool's behaviour list. */
export function defineLsConformance(getEnv: () => ToolsConformanceEnv): void {
  const ls = createLsToolDefinition();

  describe("ls", () => {
    it("lists sorted entries with / for directories, sizes and hidden entries", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-basic");
      await env.fixture(dir, { "b.txt": "12345", "A.md": "", ".env": "x", "src/index.ts": "", "Zed/x": "" });
      const out = await env.run(ls, { path: dir });
      expect(shownOf(out)).toBe([".env  1 B", "A.md  0 B", "b.txt  5 B", "src/", "Zed/"].join("\n"));
    });

    it("marks links with their target, and broken links", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-links");
      await env.fixture(dir, {
        "real.txt": "abc",
        "sub/x": "",
        "to-file": { symlink: "real.txt" },
        "to-dir": { symlink: "sub" },
        gone: { symlink: "missing.txt" },
      });
      const text = shownOf(await env.run(ls, { path: dir }));
      expect(text).toContain("to-file -> real.txt  3 B");
      expect(text).toContain("to-dir/ -> sub");
      expect(text).toContain("gone -> missing.txt (broken link)");
    });

    it("counts entries ignored by .gitignore instead of listing them, unless asked", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-ignore");
      await env.fixture(dir, {
        ".git/HEAD": "ref: refs/heads/main\n",
        ".gitignore": "node_modules/\n*.log\n",
        "node_modules/x/y.js": "",
        "app.log": "",
        "main.ts": "",
      });
      const out = await env.run(ls, { path: dir });
      const text = shownOf(out);
      expect(text).not.toContain("node_modules");
      expect(text).not.toContain("app.log");
      expect(text).toContain("main.ts");
      expect(text).toContain("[2 ignored entries not listed (includeIgnored=true lists them).]");
      const all = shownOf(await env.run(ls, { path: dir, includeIgnored: true }));
      expect(all).toContain("node_modules/  (ignored)");
      expect(all).toContain("app.log  0 B  (ignored)");
    });

    it("applies the .gitignore of a parent directory in the repository", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-parent-ignore");
      await env.fixture(dir, {
        ".git/HEAD": "",
        ".gitignore": "build/\n",
        "pkg/build/out.js": "",
        "pkg/src/a.ts": "",
      });
      const text = shownOf(await env.run(ls, { path: `${dir}/pkg` }));
      expect(text).toBe("src/\n\n[1 ignored entry not listed (includeIgnored=true lists them).]");
    });

    it("stops at the limit and says how many there are", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-limit");
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) files[`f${String(i).padStart(2, "0")}.txt`] = "";
      await env.fixture(dir, files);
      const out = await env.run(ls, { path: dir, limit: 5 });
      const text = shownOf(out);
      expect(text.split("\n").slice(0, 5)).toEqual([
        "f00.txt  0 B",
        "f01.txt  0 B",
        "f02.txt  0 B",
        "f03.txt  0 B",
        "f04.txt  0 B",
      ]);
      expect(text).toContain("Showing 5 of 12 entries.");
    });

    it("answers a file with a hint to read it and a missing directory with not_found", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-errors");
      await env.fixture(dir, { "file.txt": "x" });
      const file = await env.run(ls, { path: `${dir}/file.txt` });
      expect(file).toMatchObject({ isError: true, errorCode: "not_directory" });
      expect(shownOf(file)).toContain("Use read");
      expect(await env.run(ls, { path: `${dir}/nope` })).toMatchObject({
        isError: true,
        errorCode: "not_found",
      });
    });

    it("shows control characters in names escaped", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-control");
      await env.fixture(dir, { "evil\u001b[31mred\nfake.txt": "" });
      const text = shownOf(await env.run(ls, { path: dir }));
      expect(text).toBe("evil\\x1b[31mred\\x0afake.txt  0 B");
    });

    it("lists the working directory by default and says when a directory is empty", async () => {
      const env = getEnv();
      const dir = await env.freshDir("ls-empty");
      const ctx = await env.makeContext(dir);
      expect(shownOf(await env.run(ls, {}, { ctx }))).toBe("(. is empty)");
    });
  });
}
