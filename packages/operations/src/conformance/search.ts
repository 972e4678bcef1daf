import { describe, expect } from "vitest";
import type { GrepEvent, GrepRequest, SearchOperations } from "../types.js";
import {
  type ConformanceOptions,
  collect,
  expectCode,
  type SuiteContext,
  scaledIt,
  sorted,
} from "./context.js";
import { IGNORED_NEEDLE_FILES, LINKS_TREE, NEEDLE_MATCHES, ORDERED_FILES, SEARCH_TREE } from "./fixture.js";

/** Checks of `ops.search` against the search fixture (a repo with a nested repo). */
export function describeSearchChecks(get: () => SuiteContext, options: Required<ConformanceOptions>): void {
  const check = scaledIt(options);
  const dir = (...parts: string[]) => get().path("search", ...parts);
  const search = (): SearchOperations => {
    const found = get().ops.search;
    if (!found) throw new Error("the adapter has no `search`; declare { search: false } if that is intended");
    return found;
  };
  const grep = (request: Partial<GrepRequest> & { pattern: string }) =>
    collect(search().grep({ path: dir(), ...request }));
  const matches = (events: GrepEvent[]) =>
    sorted(
      events.filter((event) => event.type === "match").map((event) => `${event.path}:${event.lineNumber}`),
    );

  describe("search.grep", () => {
    check("finds matches in hidden files and nested repos; skips .gitignored files and .git", async () => {
      const events = await grep({ pattern: "NEEDLE" });
      expect(matches(events)).toEqual(sorted(NEEDLE_MATCHES));
      const main = events.find((event) => event.path === "src/main.ts");
      expect(main).toEqual({ type: "match", path: "src/main.ts", lineNumber: 2, line: "// NEEDLE in main" });
    });
    check("reports lines without their terminator (CRLF included)", async () => {
      const events = await grep({ pattern: "NEEDLE crlf" });
      expect(events).toEqual([{ type: "match", path: "crlf.txt", lineNumber: 1, line: "NEEDLE crlf" }]);
    });
    check("includeIgnored adds .gitignored files (the nested repo's too) but never .git", async () => {
      const files = sorted([
        ...new Set((await grep({ pattern: "NEEDLE", includeIgnored: true })).map((e) => e.path)),
      ]);
      expect(files).toEqual(
        sorted([...NEEDLE_MATCHES.map((entry) => entry.split(":")[0]!), ...IGNORED_NEEDLE_FILES]),
      );
    });
    check("ignoreCase matches other cases", async () => {
      expect(matches(await grep({ pattern: "needle in lower" }))).toEqual(["src/util.ts:1"]);
      expect(matches(await grep({ pattern: "NEEDLE IN LOWER" }))).toEqual([]);
      expect(matches(await grep({ pattern: "NEEDLE IN LOWER", ignoreCase: true }))).toEqual([
        "src/util.ts:1",
      ]);
    });
    check("a regex by default, a fixed string with literal", async () => {
      expect(matches(await grep({ pattern: "a.c" }))).toEqual(["docs/readme.md:1", "docs/readme.md:2"]);
      expect(matches(await grep({ pattern: "a.c", literal: true }))).toEqual(["docs/readme.md:1"]);
      expect(matches(await grep({ pattern: "(", literal: true }))).toEqual([]);
    });
    check("a pattern that looks like a flag is searched for, not parsed", async () => {
      expect(await grep({ pattern: "-e" })).toEqual([
        { type: "match", path: "flags.txt", lineNumber: 2, line: "-e flag-like" },
      ]);
      expect(matches(await grep({ pattern: "--help", literal: true }))).toEqual(["flags.txt:3"]);
    });
    check("context adds the lines around a match as context events", async () => {
      const events = await grep({ pattern: "NEEDLE in main", context: 1 });
      expect(events).toEqual([
        { type: "context", path: "src/main.ts", lineNumber: 1, line: "const a = 1;" },
        { type: "match", path: "src/main.ts", lineNumber: 2, line: "// NEEDLE in main" },
        { type: "context", path: "src/main.ts", lineNumber: 3, line: "const b = 2;" },
      ]);
    });
    check("glob filters files, also with a directory part", async () => {
      expect(matches(await grep({ pattern: "NEEDLE", glob: "*.ts" }))).toEqual([
        "src/deep/more.ts:1",
        "src/main.ts:2",
      ]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "src/*.ts" }))).toEqual(["src/main.ts:2"]);
    });
    check("a glob only narrows: never a .gitignored file, an ignored directory or .git", async () => {
      expect(matches(await grep({ pattern: "NEEDLE", glob: "*.log" }))).toEqual([]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "*" }))).toEqual(sorted(NEEDLE_MATCHES));
      expect(matches(await grep({ pattern: "NEEDLE", glob: "build/**" }))).toEqual([]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "{config,HEAD}" }))).toEqual([]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "**/.git/*" }))).toEqual([]);
    });
    check("with includeIgnored a glob finds ignored files, still never .git", async () => {
      expect(matches(await grep({ pattern: "NEEDLE", glob: "*.log", includeIgnored: true }))).toEqual([
        "debug.log:1",
      ]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "build/*", includeIgnored: true }))).toEqual([
        "build/out.txt:1",
      ]);
      expect(matches(await grep({ pattern: "NEEDLE", glob: "{config,HEAD}", includeIgnored: true }))).toEqual(
        [],
      );
    });
    check("maxMatches stops after that many matches", async () => {
      const events = await grep({ pattern: "MANY", maxMatches: 5 });
      expect(events.filter((event) => event.type === "match").length).toBe(5);
      expect((await grep({ pattern: "MANY" })).length).toBe(1000);
    });
    check("a file path searches that file; paths are its name", async () => {
      expect(matches(await grep({ pattern: "NEEDLE", path: dir("src", "main.ts") }))).toEqual(["main.ts:2"]);
    });
    check("a subdirectory path gives paths relative to it", async () => {
      expect(matches(await grep({ pattern: "NEEDLE", path: dir("src") }))).toEqual([
        "deep/more.ts:1",
        "main.ts:2",
      ]);
    });
    check("an invalid regex is invalid_argument", async () => {
      await expectCode(grep({ pattern: "(unclosed" }), "invalid_argument");
    });
    check("a missing path is not_found", async () => {
      await expectCode(grep({ pattern: "x", path: dir("missing") }), "not_found");
    });
    check("aborts with aborted, before and during", async () => {
      await expectCode(
        collect(search().grep({ pattern: "MANY", path: dir() }, { signal: AbortSignal.abort() })),
        "aborted",
      );
      const controller = new AbortController();
      const during = async () => {
        for await (const _event of search().grep(
          { pattern: "MANY", path: dir() },
          { signal: controller.signal },
        )) {
          controller.abort();
        }
      };
      await expectCode(during, "aborted");
    });
  });

  describe("search.grep: lines of many megabytes", () => {
    const LINE_BYTES = 4 * 1024 * 1024;
    /** A directory with `count` files of one huge matching line each, plus a short line. */
    const hugeLines = async (name: string, count: number): Promise<string> => {
      const { ops } = get();
      const root = get().path(name);
      await ops.mkdir(root, { recursive: true });
      const huge = new Uint8Array(LINE_BYTES + 1).fill(0x78);
      huge.set(new TextEncoder().encode("NEEDLE"), 0);
      huge[LINE_BYTES] = 0x0a;
      for (let i = 0; i < count; i++) {
        const bytes = new Uint8Array(huge.length + 13);
        bytes.set(huge, 0);
        bytes.set(new TextEncoder().encode("NEEDLE short\n"), huge.length);
        await ops.writeFile(get().path(name, `huge-${i}.txt`), bytes);
      }
      return root;
    };

    check(
      "a 4 MB matching line comes back cut to maxLineLength and flagged truncated; short lines stay whole",
      async () => {
        const root = await hugeLines("long-lines", 1);
        const events = await collect(search().grep({ pattern: "NEEDLE", path: root, maxLineLength: 100 }));
        expect(events).toEqual([
          {
            type: "match",
            path: "huge-0.txt",
            lineNumber: 1,
            line: `NEEDLE${"x".repeat(94)}`,
            truncated: true,
          },
          { type: "match", path: "huge-0.txt", lineNumber: 2, line: "NEEDLE short" },
        ]);
        const byDefault = await collect(search().grep({ pattern: "NEEDLE", path: root, maxMatches: 1 }));
        expect(byDefault[0]?.truncated).toBe(true);
        expect(byDefault[0]?.line.length).toBeLessThanOrEqual(4096);
        expect(byDefault[0]?.line.startsWith(`NEEDLE${"x".repeat(1000)}`)).toBe(true);
      },
      60_000,
    );

    check(
      "an abort during a search through huge lines is aborted",
      async () => {
        const root = await hugeLines("long-lines-abort", 3);
        const controller = new AbortController();
        const during = async () => {
          for await (const _event of search().grep(
            { pattern: "x", path: root },
            { signal: controller.signal },
          )) {
            controller.abort();
          }
        };
        await expectCode(during, "aborted");
      },
      60_000,
    );
  });

  describe("search: sortByPath (when the search sorts)", () => {
    // A search that leaves `sortsByPath` unset may deliver in any order; nothing to check then.
    check("grep delivers files in path order, each in line order", async () => {
      if (!search().sortsByPath) return;
      const events = await grep({ pattern: "ORDER", path: dir("order"), sortByPath: true });
      expect(events.map((event) => `${event.path}:${event.lineNumber}`)).toEqual([
        "B.txt:1",
        "a/x.txt:1",
        "a/x.txt:2",
        "a-b/x.txt:1",
        "z.txt:1",
        "é.txt:1",
      ]);
    });
    check("files delivers paths in path order, a glob kept", async () => {
      if (!search().sortsByPath) return;
      expect(await collect(search().files({ path: dir("order"), sortByPath: true }))).toEqual(ORDERED_FILES);
      expect(
        await collect(search().files({ path: dir(), glob: "order/**/*.txt", sortByPath: true })),
      ).toEqual(ORDERED_FILES.map((name) => `order/${name}`));
    });
  });

  describe("search: symbolic links are not followed", () => {
    const links = () => get().path("search-links");
    check(
      "grep searches no file through a link (to a file, a directory, a loop, out of the tree)",
      async () => {
        const events = await collect(
          search().grep({ pattern: "NEEDLE", path: links(), includeIgnored: true }),
        );
        expect(matches(events)).toEqual([`${LINKS_TREE.real}:1`]);
      },
    );
    check("files lists no link and nothing behind one", async () => {
      const listed = await collect(search().files({ path: links(), includeIgnored: true }));
      expect(sorted(listed)).toEqual([LINKS_TREE.real]);
    });
  });

  describe("search.files", () => {
    const visible = sorted(
      Object.keys(SEARCH_TREE).filter(
        (path) =>
          !path.startsWith(".git/") &&
          !path.startsWith("nested/.git/") &&
          !IGNORED_NEEDLE_FILES.includes(path),
      ),
    );
    const files = async (request: {
      glob?: string;
      limit?: number;
      includeIgnored?: boolean;
      path?: string;
    }) => sorted(await collect(search().files({ path: dir(), ...request })));

    check("lists files (hidden included, .gitignored and .git excluded) relative to path", async () => {
      expect(await files({})).toEqual(visible);
    });
    check("includeIgnored lists .gitignored files but not .git", async () => {
      expect(await files({ includeIgnored: true })).toEqual(sorted([...visible, ...IGNORED_NEEDLE_FILES]));
    });
    check("a glob without / matches at any depth", async () => {
      expect(await files({ glob: "*.ts" })).toEqual(["src/deep/more.ts", "src/main.ts", "src/util.ts"]);
      expect(await files({ glob: "ünï.txt" })).toEqual(["space dir/ünï.txt"]);
    });
    check("a glob with / is anchored at path", async () => {
      expect(await files({ glob: "src/*.ts" })).toEqual(["src/main.ts", "src/util.ts"]);
      expect(await files({ glob: "src/**/*.ts" })).toEqual([
        "src/deep/more.ts",
        "src/main.ts",
        "src/util.ts",
      ]);
      expect(await files({ glob: "**/more.ts" })).toEqual(["src/deep/more.ts"]);
    });
    check("a glob only narrows: never a .gitignored file, an ignored directory or .git", async () => {
      expect(await files({ glob: "*.log" })).toEqual([]);
      expect(await files({ glob: "*" })).toEqual(visible);
      expect(await files({ glob: "build/*" })).toEqual([]);
      expect(await files({ glob: "**/*.txt" })).not.toContain("nested/secret.txt");
      expect(await files({ glob: "config" })).toEqual([]);
      expect(await files({ glob: "HEAD" })).toEqual([]);
      expect(await files({ glob: ".git/*" })).toEqual([]);
    });
    check("with includeIgnored a glob finds ignored files, still never .git", async () => {
      expect(await files({ glob: "*.log", includeIgnored: true })).toEqual(["debug.log"]);
      expect(await files({ glob: "build/*", includeIgnored: true })).toEqual(["build/out.txt"]);
      expect(await files({ glob: "*", includeIgnored: true })).toEqual(
        sorted([...visible, ...IGNORED_NEEDLE_FILES]),
      );
      expect(await files({ glob: "{config,HEAD}", includeIgnored: true })).toEqual([]);
    });
    check("limit stops after that many paths", async () => {
      const listed = await files({ limit: 3 });
      expect(listed.length).toBe(3);
      for (const path of listed) expect(visible).toContain(path);
    });
    check("a subdirectory lists relative to it", async () => {
      expect(await files({ path: dir("nested") })).toEqual([".gitignore", "kept.txt"]);
    });
    check("a missing path is not_found; an aborted signal is aborted", async () => {
      await expectCode(collect(search().files({ path: dir("missing") })), "not_found");
      await expectCode(collect(search().files({ path: dir() }, { signal: AbortSignal.abort() })), "aborted");
      const controller = new AbortController();
      const during = async () => {
        for await (const _path of search().files({ path: dir() }, { signal: controller.signal }))
          controller.abort();
      };
      await expectCode(during, "aborted");
    });
  });
}
