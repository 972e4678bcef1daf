/** Conformance section for the grep tool: runs unchanged on any `Operations`. */
import type { ToolOutcome } from "@tackle/agent-core";
import type { ToolSession } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../defaults.js";
import { createGrepToolDefinition } from "../tools/grep.js";
import { type FixtureEntry, type ToolsConformanceEnv, textOf } from "./env.js";
import { unmarkedTextOf } from "./marker.js";

/** The text shown, without the grep tool-output marker (asserted by its own test). */
const shownOf = (outcome: ToolOutcome) => unmarkedTextOf(outcome, "grep");

/**
 * A small tree with the cases the search rules name: nested .gitignore files, a nested
 * repository, hidden files, unicode names, names that sort differently by segment than as
 * strings, CRLF, a link (not followed) and binary data. Created under `dir` by the section.
 */
export const SEARCH_FIXTURE: Record<string, FixtureEntry> = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".gitignore": "*.log\nbuild/\n!keep.log\n",
  ".env": "needle hidden\n",
  "keep.log": "needle kept\n",
  "app.log": "needle ignored\n",
  "build/out.js": "needle in build\n",
  "a.txt": "needle a.txt\n",
  "a/x.txt": "needle a/x.txt\n",
  "a-b/x.txt": "needle a-b/x.txt\n",
  "src/main.ts":
    "import { util } from './util';\n// TODO: needle one\nconst x = 1;\nconst y = 2;\n// todo: needle two\nexport {};\n",
  "src/.gitignore": "generated.ts\n",
  "src/generated.ts": "needle generated\n",
  "nested/.git/HEAD": "ref: refs/heads/main\n",
  "nested/.gitignore": "vendor/\n",
  "nested/lib.ts": "needle nested\n",
  "nested/vendor/v.ts": "needle vendored\n",
  "ünïcode/файл.txt": "needle ünïcode\n",
  "crlf.txt": "first\r\nneedle crlf\r\n",
  "flags.txt": "grep -e pattern\nrg --files lists\n",
  "binary.bin": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x0a]),
  "link.txt": { symlink: "a.txt" },
};

/**
 * `ops` without its native search, so the tools take the portable walk: an object inheriting
 * from `ops` (an adapter may be a class whose methods live on its prototype) whose `search` is
 * undefined. Methods are bound to `ops`, so private fields still work.
 */
export function withoutNativeSearch(ops: Operations): Operations {
  const portable = Object.create(ops) as Operations;
  const methods = new Set<string>();
  for (
    let proto: object | null = ops;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) methods.add(key);
  }
  for (const key of methods) {
    if (key === "constructor" || key === "search") continue;
    const value = Reflect.get(ops, key, ops);
    if (typeof value === "function") Object.defineProperty(portable, key, { value: value.bind(ops) });
  }
  Object.defineProperty(portable, "search", { value: undefined, enumerable: false });
  return portable;
}

/** The same context on the portable walk. */
export function portableContext(ctx: ToolSession): ToolSession {
  return { ...ctx, operations: withoutNativeSearch(ctx.operations) };
}

/**
 * Returns a function that creates {@link SEARCH_FIXTURE} under a fresh directory on first use
 * (once per section) and gives its path relative to the suite root, POSIX separators.
 */
export function searchFixtureOnce(name: string): (env: ToolsConformanceEnv) => Promise<string> {
  let tree: string | undefined;
  return async (env) => {
    if (tree === undefined) {
      const dir = await env.freshDir(name);
      await env.fixture(dir, SEARCH_FIXTURE);
      tree = dir.slice(env.root.length + 1).replaceAll("\\", "/");
    }
    return tree;
  };
}

/** The grep tool's behaviour list. */
export function defineGrepConformance(getEnv: () => ToolsConformanceEnv): void {
  const grep = createGrepToolDefinition();
  const setup = searchFixtureOnce("grep");

  describe("grep", () => {
    it("answers `path:line: text` sorted by path and line, relative POSIX paths", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const out = await env.run(grep, { pattern: "needle", path: `${dir}/src` });
      expect(out.isError).toBe(false);
      expect(shownOf(out)).toBe(
        `${dir}/src/main.ts:2: // TODO: needle one\n${dir}/src/main.ts:5: // todo: needle two`,
      );
      const names = shownOf(await env.run(grep, { pattern: "needle", path: dir, glob: "x.txt" }));
      expect(names).toBe(`${dir}/a/x.txt:1: needle a/x.txt\n${dir}/a-b/x.txt:1: needle a-b/x.txt`);
    });

    it("respects .gitignore at every level, includes hidden files, skips .git, links and binaries", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const text = shownOf(await env.run(grep, { pattern: "needle", path: dir }));
      expect(text).toContain(`${dir}/.env:1: needle hidden`);
      expect(text).toContain(`${dir}/keep.log:1:`);
      expect(text).toContain(`${dir}/ünïcode/файл.txt:1: needle ünïcode`);
      expect(text).toContain(`${dir}/crlf.txt:2: needle crlf\n`);
      for (const hidden of [
        "app.log",
        "build/",
        "generated.ts",
        "vendor/",
        "link.txt",
        "binary.bin",
        ".git/",
      ]) {
        expect(text).not.toContain(hidden);
      }
    });

    it("gives the same result on the native search and on the portable walk", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const portable = portableContext(env.ctx);
      for (const args of [
        { pattern: "needle", path: dir },
        { pattern: "NEEDLE", path: dir, ignoreCase: true, context: 1 },
        { pattern: "needle", path: dir, glob: "*.ts" },
        { pattern: "needle", path: dir, limit: 3, offset: 2 },
        { pattern: "-e", path: dir },
      ]) {
        const a = await env.run(grep, args);
        const b = await env.run(grep, args, { ctx: portable });
        expect(shownOf(a)).toBe(shownOf(b));
      }
    });

    it("shows context lines as `path-line- text` and -- between groups", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const text = shownOf(
        await env.run(grep, { pattern: "^(import|export)", path: `${dir}/src/main.ts`, context: 1 }),
      );
      expect(text).toBe(
        [
          `${dir}/src/main.ts:1: import { util } from './util';`,
          `${dir}/src/main.ts-2- // TODO: needle one`,
          "--",
          `${dir}/src/main.ts-5- // todo: needle two`,
          `${dir}/src/main.ts:6: export {};`,
        ].join("\n"),
      );
    });

    it("treats flag-like patterns as patterns, and literal text literally", async () => {
      const env = getEnv();
      const dir = await setup(env);
      expect(shownOf(await env.run(grep, { pattern: "-e", path: dir }))).toBe(
        `${dir}/flags.txt:1: grep -e pattern`,
      );
      expect(shownOf(await env.run(grep, { pattern: "--files", path: dir }))).toBe(
        `${dir}/flags.txt:2: rg --files lists`,
      );
      expect(shownOf(await env.run(grep, { pattern: "'./util'", path: dir, literal: true }))).toContain(
        "src/main.ts:1:",
      );
    });

    it("cuts at the limit, says which offset continues, and offset continues without overlap", async () => {
      const env = getEnv();
      const dir = await setup(env);
      const all = shownOf(await env.run(grep, { pattern: "needle", path: dir })).split("\n");
      const first = shownOf(await env.run(grep, { pattern: "needle", path: dir, limit: 4 }));
      expect(first).toContain("Use offset=4 to see more");
      const second = shownOf(await env.run(grep, { pattern: "needle", path: dir, limit: 100, offset: 4 }));
      expect([...first.split("\n\n[")[0]!.split("\n"), ...second.split("\n")]).toEqual(all);
    });

    it(`cuts lines longer than ${DEFAULTS.grepMaxLineLength} characters and says so`, async () => {
      const env = getEnv();
      const dir = await env.freshDir("grep-long");
      await env.fixture(dir, { "long.txt": `needle ${"y".repeat(DEFAULTS.grepMaxLineLength * 2)}\n` });
      const text = shownOf(await env.run(grep, { pattern: "needle", path: dir }));
      expect(text).toContain(`longer than ${DEFAULTS.grepMaxLineLength} characters and cut`);
      expect(text.split("\n")[0]!.length).toBeLessThan(DEFAULTS.grepMaxLineLength + dir.length + 200);
    });

    it("refuses an invalid regex with the engine's message and the literal=true hint", async () => {
      const env = getEnv();
      const dir = await setup(env);
      for (const ctx of [env.ctx, portableContext(env.ctx)]) {
        const out = await env.run(grep, { pattern: "foo(", path: dir }, { ctx });
        expect(out.isError).toBe(true);
        expect(shownOf(out)).toContain("Invalid regular expression");
        expect(shownOf(out)).toContain("literal=true");
      }
    });

    it("refuses a path outside the workspace", async () => {
      const env = getEnv();
      const out = await env.run(grep, { pattern: "x", path: env.path("..") });
      expect(out.isError).toBe(true);
      expect(shownOf(out)).toContain("outside the workspace");
    });

    it("marks matches as tool output and redacts secrets in them", async () => {
      const env = getEnv();
      const dir = await env.freshDir("grep-secrets");
      await env.fixture(dir, { "cfg.env": "HOST=a\nAPI_TOKEN=hunter2-secret\n" });
      const out = await env.run(grep, { pattern: "=", path: dir });
      const rel = `${dir.split(/[\\/]/).pop()}/cfg.env`;
      expect(textOf(out)).toBe(
        '<tool-output source="grep">\n' +
          `${rel}:1: HOST=a\n${rel}:2: API_TOKEN=[REDACTED:assignment]\n</tool-output>\n\n` +
          "[Secrets redacted on 1 line (assignment), shown as [REDACTED:kind]; to edit such a line, copy it with its placeholder into oldText, and repeat the placeholder in newText to keep the secret.]",
      );
      expect(JSON.stringify(out.details)).not.toContain("hunter2");
    });
  });
}
