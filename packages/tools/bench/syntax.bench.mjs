// Syntax check benchmark (run after `pnpm --filter @tackle/tools build`): what the check after
// an edit adds to the edit tool's call on a 2,000-line file, per language. Each round edits one
// line in the middle of the file through the tool, in a session with the check (the default)
// and in one with `diagnostics: { syntax: false }`, in alternating order; the delta of the
// medians is the check's cost.
// - next-edit: a file the session changed before (the usual edit: an incremental re-parse for
//   tree-sitter languages). Target <= 5 ms.
// - first-edit: a file the session never changed (a full parse). Measured, no target.
// SYNTAX_RUNS changes the rounds (default 15).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { createTool } from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";

const LINES = 2000;
const RUNS = Number(process.env.SYNTAX_RUNS ?? 15);
const TARGET_MS = 5;

/**
 * 2,000 lines of plausible source per language. One line in the middle holds `MARK0` inside a string, which
 * each round renumbers: every edit writes a text the session has not seen before.
 * `target`: whether the 5 ms target applies (tree-sitter languages and JSON; YAML is a full
 * parse by the `yaml` library on every change, measured and documented without a target).
 */
const LANGUAGES = {
  ts: {
    target: true,
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
    line: (i) =>
      i % 4 === 0 ? `def handler_${i}(data):` : `    value_${i} = compute(data, ${i}, "text") # row ${i}`,
    mark: '    marked = "MARK0"',
    markAt: 1001,
  },
  json: {
    target: true,
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
try {
  for (const [extension, language] of Object.entries(LANGUAGES)) {
    const lines = Array.from({ length: LINES }, (_, i) => language.line(i));
    lines.splice(language.markAt, 1, language.mark);
    const text = `${lines.join("\n")}\n`;
    const sessions = {
      checked: createLocalToolContext({ cwd: dir }),
      unchecked: createLocalToolContext({ cwd: dir, diagnostics: { syntax: false } }),
    };
    /** One edit call, MARK<round> -> MARK<round + 1>; `name` picks the file (a new name: a file the session never changed). */
    const call = async (which, name, round) => {
      const edit = createTool("edit", { context: sessions[which] });
      const [oldText, newText] = [`MARK${round}"`, `MARK${round + 1}"`];
      const start = performance.now();
      const outcome = await invokeTool(edit, { path: name, edits: [{ oldText, newText }] });
      const ms = performance.now() - start;
      if (outcome.isError) throw new Error(`edit failed: ${JSON.stringify(outcome.content)}`);
      const syntax = outcome.details.feedback?.syntax;
      if (syntax?.status !== (which === "checked" ? "parses" : "off")) {
        throw new Error(`${name}: syntax check said ${syntax?.status}`);
      }
      if (which === "checked") own[name.includes("-") ? "first" : "steady"].push(syntax.elapsedMs);
      return ms;
    };
    /** The check's own time inside the checked calls (details.feedback.syntax.elapsedMs). */
    const own = { steady: [], first: [] };
    const steady = { checked: [], unchecked: [] };
    const first = { checked: [], unchecked: [] };
    for (const which of ["checked", "unchecked"]) {
      await writeFile(join(dir, `${which}.${extension}`), text);
      for (let round = 0; round < RUNS; round++)
        await writeFile(join(dir, `${which}-${round}.${extension}`), text);
    }
    // Warm-up: loads the runtime and the grammar (as a session's first edit in this language
    // does) and gives the steady files their first change.
    await call("checked", `checked.${extension}`, 0);
    await call("unchecked", `unchecked.${extension}`, 0);
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 === 0 ? ["checked", "unchecked"] : ["unchecked", "checked"];
      for (const which of order) {
        steady[which].push(await call(which, `${which}.${extension}`, round + 1));
        first[which].push(await call(which, `${which}-${round}.${extension}`, 0));
      }
    }
    for (const [name, times, target, checkTimes] of [
      [
        "next-edit",
        steady,
        language.target ? { op: "<=", value: TARGET_MS, of: "value" } : undefined,
        own.steady,
      ],
      ["first-edit", first, undefined, own.first],
    ]) {
      report.measure({
        case: `${name}-2000-lines-${extension}`,
        metric: "syntax-check-added",
        unit: "ms",
        value: Math.max(0, median(times.checked) - median(times.unchecked)),
        stat: "median delta",
        rounds: RUNS,
        ...(target ? { target } : {}),
        params: {
          lines: LINES,
          withCheckMs: Number(median(times.checked).toFixed(2)),
          withoutCheckMs: Number(median(times.unchecked).toFixed(2)),
          checkOwnMs: Number(median(checkTimes).toFixed(2)),
        },
      });
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
