/**
 * Conformance section for file names as models write them: names with Unicode spaces, curly
 * quotes, decomposed (NFD) letters and `@scope/` directories are reached by their exact name
 * first, and by a look-alike spelling only when the exact name does not exist.
 */

import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../tools/edit.js";
import { createFindToolDefinition } from "../tools/find.js";
import { createGrepToolDefinition } from "../tools/grep.js";
import { createLsToolDefinition } from "../tools/ls.js";
import { createReadToolDefinition } from "../tools/read.js";
import { createWriteToolDefinition } from "../tools/write.js";
import { type ToolsConformanceEnv, textOf } from "./env.js";
import { unmarkedTextOf } from "./marker.js";

/** macOS names screenshots like this: a narrow no-break space (U+202F) before "AM". */
const SCREENSHOT = "Screenshot at 10.00.00\u202FAM.txt";
/** The same name as a model usually types it back: an ASCII space. */
const SCREENSHOT_TYPED = "Screenshot at 10.00.00 AM.txt";
const NBSP_NAME = "my\u00a0notes.txt";
const CURLY_NAME = "it\u2019s \u201Cdone\u201D.txt";
const CURLY_TYPED = `it's "done".txt`;
/** "café" with a combining accent (NFD, as macOS file systems used to store it). */
const NFD_NAME = "cafe\u0301.txt";
const NFC_NAME = "caf\u00e9.txt";

/** The path-name behaviour list, for read, write, edit, ls, grep and find. */
export function definePathNamesConformance(getEnv: () => ToolsConformanceEnv): void {
  const read = createReadToolDefinition();
  const write = createWriteToolDefinition();
  const edit = createEditToolDefinition();
  const ls = createLsToolDefinition();
  const grep = createGrepToolDefinition();
  const find = createFindToolDefinition();
  const shown = (outcome: ToolOutcome, tool: string) => unmarkedTextOf(outcome, tool);

  /** A fresh directory with the odd names, and a context whose cwd is that directory. */
  async function namesDir(env: ToolsConformanceEnv, name: string) {
    const dir = await env.freshDir(name);
    await env.fixture(dir, {
      [SCREENSHOT]: "screenshot\n",
      [NBSP_NAME]: "nbsp\n",
      [CURLY_NAME]: "curly\n",
      [NFD_NAME]: "nfd\n",
      "@scope/pkg/index.js": "export const scoped = 1;\n",
      "plain.txt": "plain\n",
    });
    const ctx = await env.makeContext(dir);
    return { dir, ctx };
  }

  describe("file names", () => {
    it("read reaches each odd name by its exact spelling", async () => {
      const env = getEnv();
      const { ctx } = await namesDir(env, "names-exact");
      for (const [path, text] of [
        [SCREENSHOT, "screenshot"],
        [NBSP_NAME, "nbsp"],
        [CURLY_NAME, "curly"],
        [NFD_NAME, "nfd"],
        ["@scope/pkg/index.js", "export const scoped = 1;"],
      ] as const) {
        const out = await env.run(read, { path }, { ctx });
        expect(out.isError, `${JSON.stringify(path)}: ${textOf(out)}`).toBe(false);
        expect(shown(out, "read"), path).toBe(`1\t${text}`);
      }
    });

    it("read falls back to a look-alike name only when the exact one does not exist", async () => {
      const env = getEnv();
      const { ctx } = await namesDir(env, "names-fallback");
      for (const [path, text] of [
        [SCREENSHOT_TYPED, "screenshot"],
        ["my notes.txt", "nbsp"],
        [CURLY_TYPED, "curly"],
        [NFC_NAME, "nfd"],
        ["@plain.txt", "plain"],
      ] as const) {
        const out = await env.run(read, { path }, { ctx });
        expect(out.isError, `${JSON.stringify(path)}: ${textOf(out)}`).toBe(false);
        expect(shown(out, "read"), path).toBe(`1\t${text}`);
      }
    });

    it("prefers the exact name over a look-alike when both exist", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-both");
      await env.fixture(dir, { [SCREENSHOT_TYPED]: "ascii\n", "@plain.txt": "at\n" });
      expect(shown(await env.run(read, { path: SCREENSHOT }, { ctx }), "read")).toBe("1\tscreenshot");
      expect(shown(await env.run(read, { path: SCREENSHOT_TYPED }, { ctx }), "read")).toBe("1\tascii");
      expect(shown(await env.run(read, { path: "@plain.txt" }, { ctx }), "read")).toBe("1\tat");
    });

    it("write to an exact new name creates exactly that name", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-write");
      const name = "new\u202Fname.txt";
      const out = await env.run(write, { path: name, content: "fresh\n" }, { ctx });
      expect(out.isError, textOf(out)).toBe(false);
      const names = (await ctx.operations.readdir(dir)).map((entry) => entry.name);
      expect(names).toContain(name);
      expect(names).not.toContain("new name.txt");
      const nfd = await env.run(write, { path: "ne\u0301e.txt", content: "x\n" }, { ctx });
      expect(nfd.isError, textOf(nfd)).toBe(false);
      const after = (await ctx.operations.readdir(dir)).map((entry) => entry.name);
      expect(after).toContain("ne\u0301e.txt");
      expect(after).not.toContain("n\u00e9e.txt");
    });

    it("write and edit of an exact odd name change that file, not a look-alike", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-mutate");
      await env.run(read, { path: SCREENSHOT }, { ctx });
      const wrote = await env.run(write, { path: SCREENSHOT, content: "replaced\n" }, { ctx });
      expect(wrote.isError, textOf(wrote)).toBe(false);
      const edited = await env.run(
        edit,
        { path: CURLY_NAME, edits: [{ oldText: "curly", newText: "straight" }] },
        { ctx },
      );
      expect(edited.isError, textOf(edited)).toBe(false);
      const decode = async (name: string) =>
        new TextDecoder().decode(await ctx.operations.readFile(`${dir}/${name}`));
      expect(await decode(SCREENSHOT)).toBe("replaced\n");
      expect(await decode(CURLY_NAME)).toBe("straight\n");
      const names = (await ctx.operations.readdir(dir)).map((entry) => entry.name);
      expect(names).not.toContain(SCREENSHOT_TYPED);
      expect(names).not.toContain(CURLY_TYPED);
    });

    it("edit through a look-alike name changes the file that exists", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-edit-fallback");
      const out = await env.run(
        edit,
        { path: SCREENSHOT_TYPED, edits: [{ oldText: "screenshot", newText: "edited" }] },
        { ctx },
      );
      expect(out.isError, textOf(out)).toBe(false);
      expect(new TextDecoder().decode(await ctx.operations.readFile(`${dir}/${SCREENSHOT}`))).toBe(
        "edited\n",
      );
    });

    it("ls, grep and find take odd directory names and @scope/ paths", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-dirs");
      await env.fixture(dir, { "dir\u00a0x/inner.txt": "needle\n" });
      const listed = await env.run(ls, { path: "dir\u00a0x" }, { ctx });
      expect(shown(listed, "ls")).toContain("inner.txt");
      const scoped = await env.run(ls, { path: "@scope" }, { ctx });
      expect(shown(scoped, "ls")).toBe("pkg/");
      const typed = await env.run(ls, { path: "dir x" }, { ctx });
      expect(shown(typed, "ls")).toContain("inner.txt");
      const grepped = await env.run(grep, { pattern: "scoped", path: "@scope/pkg" }, { ctx });
      expect(grepped.isError, textOf(grepped)).toBe(false);
      expect(shown(grepped, "grep")).toBe("@scope/pkg/index.js:1: export const scoped = 1;");
      const grepNbsp = await env.run(grep, { pattern: "needle", path: "dir\u00a0x" }, { ctx });
      expect(shown(grepNbsp, "grep")).toBe("dir\u00a0x/inner.txt:1: needle");
      const found = await env.run(find, { pattern: "*.js", path: "@scope" }, { ctx });
      expect(shown(found, "find")).toBe("@scope/pkg/index.js");
    });

    it("a missing file is never suggested as itself", async () => {
      const env = getEnv();
      const { dir, ctx } = await namesDir(env, "names-missing");
      await env.fixture(dir, { dangling: { symlink: "no-such-target" } });
      const out = await env.run(read, { path: "dangling" }, { ctx });
      expect(out).toMatchObject({ isError: true, errorCode: "not_found" });
      expect(textOf(out)).not.toMatch(/Did you mean[^?]*\bdangling\b/);
      expect(textOf(out)).toContain("no-such-target");
    });
  });
}
