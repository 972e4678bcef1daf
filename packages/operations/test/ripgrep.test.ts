/**
 * The shared ripgrep pieces every native search adapter uses: argument lists per request shape,
 * `--json` record parsing, record splitting, failure mapping, and result filtering.
 */
import { describe, expect, it } from "vitest";
import {
  compileGlob,
  filePathsOf,
  GLOB_TYPE_NAME,
  globSelection,
  grepEventsOf,
  parseGrepRecord,
  planFiles,
  planGrep,
  RecordSplitter,
  ripgrepExitError,
  ripgrepRelativePath,
} from "../src/ripgrep/index.js";

const dir = { kind: "directory" } as const;
const typeArgs = (glob: string) => ["--type-add", `${GLOB_TYPE_NAME}:${glob}`, "--type", GLOB_TYPE_NAME];

async function* batches(...groups: string[][]) {
  for (const group of groups) yield group;
}
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
const record = (type: string, path: string, line: string, lineNumber = 1) =>
  JSON.stringify({ type, data: { path: { text: path }, lines: { text: line }, line_number: lineNumber } });

describe("planGrep", () => {
  it("builds the plain request: json, common flags, case-sensitive, .git excluded, pattern after --regexp and path after --", () => {
    const plan = planGrep({ pattern: "-e", path: "/r" }, dir);
    expect(plan.args).toEqual([
      "--json",
      "--hidden",
      "--no-require-git",
      "--no-config",
      "--case-sensitive",
      "--glob",
      "!.git",
      "--regexp",
      "-e",
      "--",
      "./",
    ]);
    expect(plan.separator).toBe("\n");
    expect(plan.limit).toBe(Number.POSITIVE_INFINITY);
  });

  it("adds ignoreCase, literal, context, includeIgnored and maxMatches", () => {
    const plan = planGrep(
      {
        pattern: "x",
        path: "/r",
        ignoreCase: true,
        literal: true,
        context: 2,
        includeIgnored: true,
        maxMatches: 7,
      },
      dir,
    );
    expect(plan.args).toEqual([
      "--json",
      "--hidden",
      "--no-require-git",
      "--no-config",
      "--ignore-case",
      "--fixed-strings",
      "--context",
      "2",
      "--no-ignore",
      "--glob",
      "!.git",
      "--regexp",
      "x",
      "--",
      "./",
    ]);
    expect(plan.limit).toBe(7);
  });

  it("passes a name glob as a file type, never as --glob, and keeps .git excluded last among globs", () => {
    const plan = planGrep({ pattern: "x", path: "/r", glob: "*.{ts,log}" }, dir);
    expect(plan.args).toEqual(expect.arrayContaining(typeArgs("*.{ts,log}")));
    const globs = plan.args.flatMap((arg, i) => (plan.args[i - 1] === "--glob" ? [arg] : []));
    expect(globs).toEqual(["!.git"]);
    expect(plan.keeps("deep/a.log")).toBe(true);
  });

  it("searches a file by name and applies no glob to it", () => {
    const plan = planGrep(
      { pattern: "x", path: "/r/a.ts", glob: "src/*.md" },
      { kind: "file", name: "a.ts" },
    );
    expect(plan.args.slice(-2)).toEqual(["--", "a.ts"]);
    expect(plan.args).not.toContain("--type");
    expect(plan.keeps("a.ts")).toBe(true);
  });
});

describe("planFiles", () => {
  it("lists with --files --null, common flags and .git excluded", () => {
    const plan = planFiles({ path: "/r", limit: 3 }, dir);
    expect(plan.args).toEqual([
      "--files",
      "--null",
      "--hidden",
      "--no-require-git",
      "--no-config",
      "--glob",
      "!.git",
      "--",
      "./",
    ]);
    expect(plan.separator).toBe("\0");
    expect(plan.limit).toBe(3);
  });

  it("adds --no-ignore for includeIgnored", () => {
    expect(planFiles({ path: "/r", includeIgnored: true }, dir).args).toContain("--no-ignore");
  });

  it("filters a glob with / itself and narrows rg by its plain last segment", () => {
    const plan = planFiles({ path: "/r", glob: "src/**/*.ts" }, dir);
    expect(plan.args).toEqual(expect.arrayContaining(typeArgs("*.ts")));
    expect(plan.args.filter((arg) => arg === "--glob")).toHaveLength(1);
    expect(plan.keeps("src/a/b.ts")).toBe(true);
    expect(plan.keeps("lib/b.ts")).toBe(false);
  });
});

describe("globSelection", () => {
  it("passes a negated glob as --glob (it can only remove)", () => {
    expect(globSelection("!*.ts", "directory").args).toEqual(["--glob", "!*.ts"]);
  });

  it("filters globs a type cannot carry (a colon) or that end in ** without narrowing", () => {
    const colon = globSelection("a:b", "directory");
    expect(colon.args).toEqual([]);
    expect(colon.keeps("x/a:b")).toBe(true);
    expect(colon.keeps("x/ab")).toBe(false);
    const deep = globSelection("src/**", "directory");
    expect(deep.args).toEqual([]);
    expect(deep.keeps("src/a/b")).toBe(true);
    expect(deep.keeps("lib/a")).toBe(false);
  });

  it("does not narrow by a last segment rg could read differently", () => {
    expect(globSelection("src/{a,b}.ts", "directory").args).toEqual([]);
    expect(globSelection("src/[!a].ts", "directory").args).toEqual([]);
  });

  it("ignores an empty glob", () => {
    expect(globSelection("  ", "directory").args).toEqual([]);
  });
});

describe("compileGlob", () => {
  it("matches a name at any depth without /, the whole path with /, dot files included", () => {
    expect(compileGlob("*.ts")("a/b/.c.ts")).toBe(true);
    expect(compileGlob("src/*.ts")("src/a.ts")).toBe(true);
    expect(compileGlob("src/*.ts")("src/a/b.ts")).toBe(false);
    expect(compileGlob("/src/*.ts")("src/a.ts")).toBe(true);
    expect(compileGlob("./src/**")("src/a/b.ts")).toBe(true);
  });
});

describe("parseGrepRecord", () => {
  it("turns match and context records into events without line terminators", () => {
    expect(parseGrepRecord(record("match", "./src/a.ts", "hit\r\n", 4))).toEqual({
      type: "match",
      path: "src/a.ts",
      lineNumber: 4,
      line: "hit",
    });
    expect(parseGrepRecord(record("context", "a.ts", "near\n", 3))).toEqual({
      type: "context",
      path: "a.ts",
      lineNumber: 3,
      line: "near",
    });
  });

  it("skips begin, end and summary records", () => {
    expect(parseGrepRecord('{"type":"begin","data":{"path":{"text":"./a"}}}')).toBeUndefined();
    expect(parseGrepRecord('{"type":"summary","data":{}}')).toBeUndefined();
  });

  it("decodes non-UTF-8 paths and lines given as base64 bytes, with replacement characters", () => {
    const bytes = (value: Buffer) => ({ bytes: value.toString("base64") });
    const line = JSON.stringify({
      type: "match",
      data: {
        path: bytes(Buffer.from([0x2e, 0x2f, 0x66, 0xff, 0x2e, 0x74, 0x78, 0x74])),
        lines: bytes(Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xfe, 0x0d, 0x0a])),
        line_number: 9,
      },
    });
    expect(parseGrepRecord(line)).toEqual({
      type: "match",
      path: "f\uFFFD.txt",
      lineNumber: 9,
      line: "needle\uFFFD",
    });
  });

  it("keeps backslashes in POSIX names and turns Windows separators into /", () => {
    expect(ripgrepRelativePath("./a\\b.txt")).toBe("a\\b.txt");
    expect(ripgrepRelativePath("./a\\b.txt", "win32")).toBe("a/b.txt");
  });
});

describe("RecordSplitter", () => {
  it("keeps a character split across chunks and returns the records each chunk completes", () => {
    const splitter = new RecordSplitter("\0");
    const bytes = new TextEncoder().encode("é.txt\0b.txt\0tail");
    expect(splitter.push(bytes.slice(0, 1))).toEqual([]);
    expect(splitter.push(bytes.slice(1, 13))).toEqual(["é.txt", "b.txt"]);
    expect(splitter.push(bytes.slice(13))).toEqual([]);
    expect(splitter.end()).toEqual(["tail"]);
    expect(splitter.end()).toEqual([]);
  });
});

describe("ripgrepExitError", () => {
  const exit = (exitCode: number | null, stderr: string, records = 0) =>
    ripgrepExitError({ exitCode, stderr, records, operation: "grep", path: "/r", rgPath: "rg" });

  it("maps an invalid regex or glob to invalid_argument with rg's message", () => {
    const error = exit(2, "rg: regex parse error:\n    (unclosed\n    ^\nerror: unclosed group\n");
    expect(error).toMatchObject({ code: "invalid_argument", operation: "grep", path: "/r" });
    expect(error?.message).toContain("unclosed group");
    expect(exit(2, "rg: error parsing glob '*.{ts': unclosed alternate group")?.code).toBe(
      "invalid_argument",
    );
    expect(exit(2, "rg: invalid definition (format is type:glob, e.g., html:*.html)")?.code).toBe(
      "invalid_argument",
    );
  });

  it("maps permission denied, a binary that cannot run, and anything else", () => {
    expect(exit(2, "rg: ./x: Permission denied (os error 13)")?.code).toBe("permission_denied");
    expect(exit(127, "sh: rg: not found")?.code).toBe("not_supported");
    expect(exit(2, "rg: something odd")?.code).toBe("unknown");
  });

  it("is no error for exit 0 and 1, or exit 2 after output", () => {
    expect(exit(0, "")).toBeUndefined();
    expect(exit(1, "")).toBeUndefined();
    expect(exit(2, "rg: ./x: Permission denied", 4)).toBeUndefined();
  });
});

describe("grepEventsOf and filePathsOf", () => {
  it("filters by the plan's glob, cuts after the limit and stops reading", async () => {
    const plan = planGrep({ pattern: "x", path: "/r", glob: "src/*.ts", maxMatches: 2 }, dir);
    let reads = 0;
    async function* counted() {
      for (const group of [
        [
          record("match", "./lib/a.ts", "x"),
          record("context", "./src/a.ts", "c", 1),
          record("match", "./src/a.ts", "x", 2),
        ],
        [record("match", "./src/b.ts", "x")],
        [record("match", "./src/c.ts", "x")],
      ]) {
        reads++;
        yield group;
      }
    }
    const events = await collect(grepEventsOf(counted(), plan, undefined));
    expect(events.map((event) => `${event.type} ${event.path}:${event.lineNumber}`)).toEqual([
      "context src/a.ts:1",
      "match src/a.ts:2",
      "match src/b.ts:1",
    ]);
    expect(reads).toBe(2);
  });

  it("yields request-relative paths, skipping empty records, up to the limit", async () => {
    const plan = planFiles({ path: "/r", glob: "**/b*", limit: 2 }, dir);
    const paths = await collect(
      filePathsOf(batches(["./a/b1", "", "./c"], ["./b2", "./b3"]), plan, undefined),
    );
    expect(paths).toEqual(["a/b1", "b2"]);
  });

  it("yields nothing for a limit of 0", async () => {
    const plan = planFiles({ path: "/r", limit: 0 }, dir);
    expect(await collect(filePathsOf(batches(["./a"]), plan, undefined))).toEqual([]);
  });

  it("stops with aborted when the signal fires", async () => {
    const plan = planFiles({ path: "/r" }, dir);
    await expect(collect(filePathsOf(batches(["./a"]), plan, AbortSignal.abort()))).rejects.toMatchObject({
      code: "aborted",
    });
  });
});
