/** Conformance section for the find tool: runs unchanged on any `Operations`. */
import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { createFindToolDefinition } from "../tools/find.js";
import type { ToolsConformanceEnv } from "./env.js";
import { portableContext, searchFixtureOnce } from "./grep.js";
import { unmarkedTextOf } from "./marker.js";

/** The text shown, without the find tool-output marker (asserted by its own test). */
const shownOf = (outcome: ToolOutcome) => unmarkedTextOf(outcome, "find");

/** The find tool's behaviour list. */
export function defineFindConformance(getEnv: () => ToolsConformanceEnv): void {
  const find = createFindToolDefinition();
  const setup = searchFixtureOnce("find");

  describe("find", () => {
    it("lists files by a name glob at any depth, sorted, relative POSIX paths", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const out = await env.run(find, { pattern: "*.txt", path: dir });
      expect(out.isError).toBe(false);
      expect(shownOf(out)).toBe(
        ["a/x.txt", "a-b/x.txt", "a.txt", "crlf.txt", "flags.txt", "ünïcode/файл.txt"]
          .map((p) => `${dir}/${p}`)
          .join("\n"),
      );
    });

    it("matches a glob with / against the path under `path`", async () => {
      const env = getEnv();
      const dir = await setup(env);
      // src/generated.ts matches too, but src/.gitignore ignores it: a glob never overrides that.
      expect(shownOf(await env.run(find, { pattern: "src/*.ts", path: dir }))).toBe(`${dir}/src/main.ts`);
      expect(shownOf(await env.run(find, { pattern: "**/lib.ts", path: dir }))).toBe(`${dir}/nested/lib.ts`);
    });

    it("includes hidden files, skips ignored directories, links and .git", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const lines = shownOf(await env.run(find, { pattern: "*", path: dir })).split("\n");
      expect(lines).toContain(`${dir}/.env`);
      expect(lines).toContain(`${dir}/.gitignore`);
      expect(lines).not.toContain(`${dir}/link.txt`);
      expect(lines.some((line) => line.includes("/.git/"))).toBe(false);
      const ts = shownOf(await env.run(find, { pattern: "*.ts", path: dir })).split("\n");
      expect(ts).not.toContain(`${dir}/nested/vendor/v.ts`);
      expect(shownOf(await env.run(find, { pattern: "*.log", path: dir }))).toBe(`${dir}/keep.log`);
    });

    it("gives the same result on the native listing and on the portable walk", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const portable = portableContext(env.ctx);
      for (const args of [
        { pattern: "*", path: dir },
        { pattern: "*.ts", path: dir },
        { pattern: "src/**", path: dir },
        { pattern: "*", path: dir, limit: 3, offset: 3 },
      ]) {
        expect(shownOf(await env.run(find, args))).toBe(
          shownOf(await env.run(find, args, { ctx: portable })),
        );
      }
    });

    it("cuts at the limit, names the next offset, and offset continues", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const all = shownOf(await env.run(find, { pattern: "*", path: dir })).split("\n");
      const first = shownOf(await env.run(find, { pattern: "*", path: dir, limit: 3 }));
      expect(first).toContain("Use offset=3 to see more");
      const rest = shownOf(await env.run(find, { pattern: "*", path: dir, offset: 3 }));
      expect([...first.split("\n\n[")[0]!.split("\n"), ...rest.split("\n")]).toEqual(all);
    });

    it("says plainly when nothing matches, and refuses a path outside the workspace", async () => {
      const env = getEnv();
      const dir = await setup(env);
      expect(shownOf(await env.run(find, { pattern: "*.rs", path: dir }))).toBe(
        `No files match "*.rs" in ${dir}.`,
      );
      const out = await env.run(find, { pattern: "*", path: env.path("..") });
      expect(out.isError).toBe(true);
      expect(shownOf(out)).toContain("outside the workspace");
    });
  });
}
