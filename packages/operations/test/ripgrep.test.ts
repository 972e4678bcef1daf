/**
 * The shared ripgrep pieces every native search adapter uses: argument lists per request shape,
 * output reading (grep lines in bounded memory, NUL-separated paths), failure mapping, and
 * result filtering.
 */
import { describe, expect, it } from "vitest";
import {
  compileGlob,
  filePathsOf,
  GLOB_TYPE_NAME,
  type GrepLine,
  GrepOutputReader,
  globSelection,
  grepEventsOf,
  maxColumnsFor,
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
const record = (type: "match" | "context", path: string, line: string, lineNumber = 1): GrepLine => ({
  type,
  path,
  line,
  lineNumber,
  truncated: false,
});
const OUTPUT_ARGS = ["--no-heading", "--with-filename", "--line-number", "--null", "--color", "never"];
const columns = (chars = 4096) => ["--max-columns", String(maxColumnsFor(chars)), "--max-columns-preview"];

describe("planGrep", () => {
  it("builds the plain request: NUL-ended paths, lines cut by rg, common flags, case-sensitive, .git excluded, pattern after --regexp and path after --", () => {
    const plan = planGrep({ pattern: "-e", path: "/r" }, dir);
    expect(plan.args).toEqual([
      ...OUTPUT_ARGS,
      ...columns(),
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
    expect(plan.kind).toBe("grep");
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
        maxLineLength: 10,
      },
      dir,
    );
    expect(plan.args).toEqual([
      ...OUTPUT_ARGS,
      ...columns(10),
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
    expect(plan.kind).toBe("files");
    expect(plan.limit).toBe(3);
  });

  it("adds --no-ignore for includeIgnored", () => {
    expect(planFiles({ path: "/r", includeIgnored: true }, dir).args).toContain("--no-ignore");
  });

  it("tells rg not to look for parent ignore files only when the adapter found none (grep and files)", () => {
    const none = { kind: "directory", parentIgnoreFiles: false } as const;
    expect(planFiles({ path: "/r" }, none).args).toContain("--no-ignore-parent");
    expect(planGrep({ pattern: "x", path: "/r" }, none).args).toContain("--no-ignore-parent");
    expect(planFiles({ path: "/r" }, dir).args).not.toContain("--no-ignore-parent");
    expect(planFiles({ path: "/r" }, { kind: "directory", parentIgnoreFiles: true }).args).not.toContain(
      "--no-ignore-parent",
    );
    expect(planFiles({ path: "/r", includeIgnored: true }, none).args).not.toContain("--no-ignore-parent");
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

  it("passes **/NAME as the type NAME: the same files at any depth, no matcher per path", () => {
    const deep = globSelection("**/*.ts", "directory");
    expect(deep.args).toEqual(globSelection("*.ts", "directory").args);
    expect(deep.keeps("a/b/c.js")).toBe(true);
    expect(globSelection("**/**/*.ts", "directory").args).toEqual(deep.args);
    // A glob with a / after the prefix is still matched per path.
    const nested = globSelection("**/src/*.ts", "directory");
    expect(nested.keeps("a/src/b.ts")).toBe(true);
    expect(nested.keeps("a/lib/b.ts")).toBe(false);
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

describe("GrepOutputReader", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const read = (reader: GrepOutputReader, ...chunks: (string | Uint8Array)[]) => [
    ...chunks.flatMap((chunk) => reader.push(typeof chunk === "string" ? bytes(chunk) : chunk)),
    ...reader.end(),
  ];

  it("reads match and context lines without their terminators, paths as printed", () => {
    expect(read(new GrepOutputReader(), "./src/a.ts\u00004:hit\r\n./src/a.ts\u00005-near\n")).toEqual([
      { type: "match", path: "./src/a.ts", lineNumber: 4, line: "hit", truncated: false },
      { type: "context", path: "./src/a.ts", lineNumber: 5, line: "near", truncated: false },
    ]);
  });

  it("reads a record split at any byte, a path holding a newline or a colon, and a UTF-8 character split across chunks", () => {
    const text = "./a\nb:c\u00007:x: é\n./z\u00001:y\n";
    const whole = read(new GrepOutputReader(), text);
    expect(whole).toEqual([
      { type: "match", path: "./a\nb:c", lineNumber: 7, line: "x: é", truncated: false },
      { type: "match", path: "./z", lineNumber: 1, line: "y", truncated: false },
    ]);
    const encoded = bytes(text);
    for (let cut = 1; cut < encoded.length; cut++) {
      expect(read(new GrepOutputReader(), encoded.slice(0, cut), encoded.slice(cut))).toEqual(whole);
    }
  });

  it("skips context separators and rg's binary-file notices", () => {
    const out = read(
      new GrepOutputReader(),
      "./a\u00001:x\n--\n./a\u00009:x\n",
      './a: WARNING: stopped searching binary file after match (found "\\0" byte around offset 300006)\n',
      'b.dat: binary file matches (found "\\0" byte around offset 2)\n./c\u00002-y\n',
    );
    expect(out.map((line) => `${line.path}:${line.lineNumber}`)).toEqual(["./a:1", "./a:9", "./c:2"]);
  });

  it("decodes bytes that are not UTF-8 with replacement characters", () => {
    const chunk = new Uint8Array([...bytes("./f"), 0xff, ...bytes(".txt\u00009:needle"), 0xfe, 0x0a]);
    expect(read(new GrepOutputReader(), chunk)).toEqual([
      { type: "match", path: "./f\uFFFD.txt", lineNumber: 9, line: "needle\uFFFD", truncated: false },
    ]);
  });

  it("takes off rg's preview suffix from a cut line and says it was cut; a short line that ends like it stays whole", () => {
    const suffix = " [... omitted end of long line]";
    const cut = read(new GrepOutputReader(10), `./a\u00001:${"x".repeat(40)}${suffix}\n`);
    expect(cut).toEqual([
      { type: "match", path: "./a", lineNumber: 1, line: "x".repeat(10), truncated: true },
    ]);
    const whole = read(new GrepOutputReader(10), `./a\u00001:ab${suffix.slice(0, 5)}\n`);
    expect(whole[0]).toMatchObject({ line: `ab${suffix.slice(0, 5)}`, truncated: false });
    const literal = read(new GrepOutputReader(100), `./a\u00001:x${suffix}\n`);
    expect(literal[0]).toMatchObject({ line: `x${suffix}`, truncated: false });
  });

  it("keeps at most a bounded number of bytes of a huge line, however it arrives", () => {
    const reader = new GrepOutputReader(100);
    const line = new Uint8Array(8 * 1024 * 1024).fill(0x78);
    const out = [...reader.push(bytes("./big\u00001:"))];
    for (let at = 0; at < line.length; at += 65536) out.push(...reader.push(line.subarray(at, at + 65536)));
    out.push(...reader.push(bytes("\n./small\u00002:y\n")), ...reader.end());
    expect(out).toEqual([
      { type: "match", path: "./big", lineNumber: 1, line: "x".repeat(100), truncated: true },
      { type: "match", path: "./small", lineNumber: 2, line: "y", truncated: false },
    ]);
  });

  it("never ends a cut line inside a character or a surrogate pair", () => {
    const out = read(new GrepOutputReader(3), `./a\u00001:ab😀cd${"é".repeat(20)}\n`);
    expect(out[0]).toMatchObject({ line: "ab", truncated: true });
  });

  it("drops a last line cut off without its newline (rg was stopped)", () => {
    expect(read(new GrepOutputReader(), "./a\u00001:x\n./a\u00002:par")).toHaveLength(1);
  });
});

describe("ripgrepRelativePath", () => {
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
  const exit = (exitCode: number | null, stderr: string, records = 0, kind: "grep" | "files" = "files") =>
    ripgrepExitError({ kind, exitCode, stderr, records, operation: "grep", path: "/r", rgPath: "rg" });

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

  it("for grep, only a refused pattern or glob fails: unreadable files without a match are an empty result", () => {
    expect(exit(2, "rg: ./x: Permission denied (os error 13)", 0, "grep")).toBeUndefined();
    expect(exit(2, "rg: regex parse error:\n    (\n", 0, "grep")?.code).toBe("invalid_argument");
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
    const plan = planFiles({ path: "/r", glob: "x/**/b*", limit: 2 }, dir);
    const paths = await collect(
      filePathsOf(batches(["./x/a/b1", "", "./x/c"], ["./x/b2", "./x/b3"]), plan, undefined),
    );
    expect(paths).toEqual(["x/a/b1", "x/b2"]);
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
