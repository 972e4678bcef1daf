// Syntax check benchmark (run after `pnpm --filter @tackle/tools build`): what the check after
// an edit adds to the edit tool's call on a 2,000-line file, per language. Each round calls the
// tools in a session with the check (the default) and in one with `diagnostics: { syntax: false }`,
// in alternating order; the delta of the medians is the check's cost (same run, same files).
// - next-edit: a file the session changed before (an incremental re-parse for tree-sitter
//   languages). Target <= 5 ms.
// - first-edit-after-read: the usual first change: read the file, then edit it (the read starts a
//   background parse; the bench waits for it, as a model's turn between the two calls does).
//   Target <= 5 ms. `read-added` is what the read itself pays for starting it;
//   `background-parse` how long the parse took after the read returned, and the longest the
//   event loop was held meanwhile (one step).
// - first-edit-racing-read: the edit right after the read, the background parse not done (it is
//   finished or dropped, never waited on for longer than a full parse). Measured, no target.
// - first-edit-no-read: a file the session never read nor changed (a full parse). No target.
// SYNTAX_RUNS changes the rounds (default 21).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { createTool, syntaxCacheStats } from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";

const LINES = 2000;
const RUNS = Number(process.env.SYNTAX_RUNS ?? 21);
const TARGET_MS = 5;

/**
 * 2,000 lines of plausible source per language. One line in the middle holds `MARK0` inside a string, which
 * each round renumbers: every edit writes a text the session has not seen before.
 * `target`: whether the 5 ms target applies (tree-sitter languages and JSON; YAML is a full
 * parse by the `yaml` library on every change, measured and documented without a target).
 * `background`: whether a read starts a background parse (tree-sitter languages).
 */
const LANGUAGES = {
  ts: {
    target: true,
    background: true,
    line: (i) =>
      i % 5 === 0
        ? `export function handler${i}(input: Input${i}): Output {`
        : i % 5 === 4
          ? "}"
          : `  const value${i} = compute(input, ${i}, "text ${i}") as number; // row ${i}`,
    mark: '  const marked = "MARK0";',
    markAt: 1001,
  },
  py: {
    target: true,
    background: true,
    line: (i) =>
      i % 4 === 0 ? `def handler_${i}(data):` : `    value_${i} = compute(data, ${i}, "text") # row ${i}`,
    mark: '    marked = "MARK0"',
    markAt: 1001,
  },
  json: {
    target: true,
    background: false,
    line: (i) =>
      i === 0
        ? "{"
        : i === LINES - 1
          ? '  "last": true\n}'
          : `  "key${i}": { "value": ${i}, "text": "row ${i}" },`,
    mark: '  "marked": "MARK0",',
    markAt: 1001,
  },
  yaml: {
    target: false,
    background: false,
    line: (i) =>
      [
        `job${i}:`,
        "  runs-on: ubuntu-latest",
        "  steps:",
        `    - run: npm test -- --shard ${i}`,
        '    - uses: "actions/checkout@v4"',
      ][i % 5],
    mark: '    - run: "MARK0"',
    markAt: 1003,
  },
};

const report = createBenchReport(import.meta.url, "syntax");
const dir = await mkdtemp(join(tmpdir(), "tackle-syntax-bench-"));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits until no background parse is left, as the model's turn between a read and an edit
 * does; returns how long that took and the longest the event loop went without a turn.
 */
async function backgroundDone() {
  const start = performance.now();
  let longestBlock = 0;
  while (syntaxCacheStats().backgroundParses > 0) {
    const before = performance.now();
    await nextTurn();
    longestBlock = Math.max(longestBlock, performance.now() - before);
  }
  return { ms: performance.now() - start, longestBlock };
}

try {
  for (const [extension, language] of Object.entries(LANGUAGES)) {
    const lines = Array.from({ length: LINES }, (_, i) => language.line(i));
    lines.splice(language.markAt, 1, language.mark);
    const text = `${lines.join("\n")}\n`;
    const contexts = {
      checked: createLocalToolContext({ cwd: dir }),
      unchecked: createLocalToolContext({ cwd: dir, diagnostics: { syntax: false } }),
    };
    const tools = Object.fromEntries(
      Object.entries(contexts).map(([which, context]) => [
        which,
        { read: createTool("read", { context }), edit: createTool("edit", { context }) },
      ]),
    );
    /** One read call; its time. */
    const read = async (which, name) => {
      const start = performance.now();
      const outcome = await invokeTool(tools[which].read, { path: name });
      const ms = performance.now() - start;
      if (outcome.isError) throw new Error(`read failed: ${JSON.stringify(outcome.content)}`);
      return ms;
    };
    /** One edit call, MARK<round> -> MARK<round + 1>; its time. `own` collects the check's own time. */
    const edit = async (which, name, round, own) => {
      const [oldText, newText] = [`MARK${round}"`, `MARK${round + 1}"`];
      const start = performance.now();
      const outcome = await invokeTool(tools[which].edit, { path: name, edits: [{ oldText, newText }] });
      const ms = performance.now() - start;
      if (outcome.isError) throw new Error(`edit failed: ${JSON.stringify(outcome.content)}`);
      const syntax = outcome.details.feedback?.syntax;
      if (syntax?.status !== (which === "checked" ? "parses" : "off")) {
        throw new Error(`${name}: syntax check said ${syntax?.status}`);
      }
      if (which === "checked") own.push(syntax.elapsedMs);
      return ms;
    };
    const cases = Object.fromEntries(
      [
        "next-edit",
        "first-edit-after-read",
        "first-edit-racing-read",
        "first-edit-no-read",
        "read-added",
      ].map((name) => [name, { checked: [], unchecked: [], own: [] }]),
    );
    const background = { ms: [], longestBlock: 0 };
    const file = (which, kind, round) => `${which}-${kind}-${round}.${extension}`;
    for (const which of ["checked", "unchecked"]) {
      await writeFile(join(dir, `${which}.${extension}`), text);
      for (let round = 0; round < RUNS; round++) {
        for (const kind of ["read", "race", "none"])
          await writeFile(join(dir, file(which, kind, round)), text);
      }
    }
    // Warm-up: loads the runtime and the grammar (as a session's first edit in this language
    // does) and gives the steady files their first change.
    for (const which of ["checked", "unchecked"]) {
      await read(which, `${which}.${extension}`);
      await backgroundDone();
      await edit(which, `${which}.${extension}`, 0, []);
    }
    /** Each case in its own loop, the two sessions alternating in both orders. */
    const rounds = async (run) => {
      for (let round = 0; round < RUNS; round++) {
        for (const which of round % 2 === 0 ? ["checked", "unchecked"] : ["unchecked", "checked"]) {
          await run(which, round);
        }
      }
    };
    const timed = (name) => cases[name];
    await rounds(async (which, round) => {
      timed("next-edit")[which].push(
        await edit(which, `${which}.${extension}`, round + 1, timed("next-edit").own),
      );
    });
    // Read, the model's turn (the background parse ends), edit.
    await rounds(async (which, round) => {
      timed("read-added")[which].push(await read(which, file(which, "read", round)));
      const done = await backgroundDone();
      if (which === "checked") {
        background.ms.push(done.ms);
        background.longestBlock = Math.max(background.longestBlock, done.longestBlock);
      }
      const name = "first-edit-after-read";
      timed(name)[which].push(await edit(which, file(which, "read", round), 0, timed(name).own));
    });
    // Read and edit at once: the edit meets its file's background parse.
    await rounds(async (which, round) => {
      await read(which, file(which, "race", round));
      const name = "first-edit-racing-read";
      timed(name)[which].push(await edit(which, file(which, "race", round), 0, timed(name).own));
      await backgroundDone();
    });
    await rounds(async (which, round) => {
      const name = "first-edit-no-read";
      timed(name)[which].push(await edit(which, file(which, "none", round), 0, timed(name).own));
    });
    for (const [name, times] of Object.entries(cases)) {
      const target =
        language.target && (name === "next-edit" || name === "first-edit-after-read")
          ? { op: "<=", value: TARGET_MS, of: "value" }
          : undefined;
      report.measure({
        case: `${name}-2000-lines-${extension}`,
        metric: name === "read-added" ? "read-added" : "syntax-check-added",
        unit: "ms",
        value: Math.max(0, median(times.checked) - median(times.unchecked)),
        stat: "median delta",
        rounds: RUNS,
        ...(target ? { target } : {}),
        params: {
          lines: LINES,
          withCheckMs: Number(median(times.checked).toFixed(2)),
          withoutCheckMs: Number(median(times.unchecked).toFixed(2)),
          ...(times.own.length > 0 ? { checkOwnMs: Number(median(times.own).toFixed(2)) } : {}),
        },
      });
    }
    if (language.background) {
      report.measure({
        case: `background-parse-2000-lines-${extension}`,
        metric: "after-read",
        unit: "ms",
        value: median(background.ms),
        stat: "median",
        rounds: RUNS,
        params: { lines: LINES, longestBlockMs: Number(background.longestBlock.toFixed(2)) },
      });
    }
    await Promise.all(Object.values(contexts).map((context) => context.dispose()));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
