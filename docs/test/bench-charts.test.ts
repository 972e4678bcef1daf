import { describe, expect, it } from "vitest";
import {
  benchGroups,
  displayUnit,
  ratioChart,
  scaleCharts,
  tableRows,
  wrapText,
} from "../.vitepress/bench/charts.mjs";
import { parseResults } from "../.vitepress/bench/results.mjs";

/** One measurement line in the reporter's format. */
function line(fields: Record<string, unknown>): string {
  return JSON.stringify({
    schema: "tackle-bench/1",
    package: "@tackle/tools",
    bench: "search",
    case: "grep",
    metric: "time",
    unit: "ms",
    value: 10,
    stat: "median",
    rounds: 5,
    baseline: null,
    ratio: null,
    target: null,
    pass: null,
    params: {},
    ...fields,
  });
}

describe("benchmark charts", () => {
  it("reads the reporter's JSON lines and refuses another schema, naming the line", () => {
    expect(parseResults(`${line({})}\n\n${line({ case: "find" })}\n`, "x.jsonl")).toHaveLength(2);
    expect(() => parseResults(`${line({})}\n${line({ schema: "tackle-bench/2" })}`, "x.jsonl")).toThrow(
      "x.jsonl:2: schema tackle-bench/2, expected tackle-bench/1",
    );
    expect(() => parseResults(line({ value: "fast" }), "x.jsonl")).toThrow(
      "x.jsonl:1: value is not a number",
    );
  });

  it("groups by package and benchmark in the order of the results", () => {
    const records = parseResults([line({}), line({ bench: "edit" }), line({ case: "find" })].join("\n"), "x");
    expect(
      benchGroups(records).map((g: { bench: string; records: unknown[] }) => [g.bench, g.records.length]),
    ).toEqual([
      ["search", 2],
      ["edit", 1],
    ]);
  });

  it("draws a ratio bar per measurement with a baseline: faster left of 1x, slower right, target ticked", () => {
    const records = parseResults(
      [
        line({ case: "fast", baseline: { name: "rg", value: 20 }, ratio: 0.5 }),
        line({
          case: "slow",
          baseline: { name: "rg", value: 5 },
          ratio: 2,
          target: { op: "<=", value: 1.5, of: "ratio" },
        }),
        line({ case: "alone" }),
      ].join("\n"),
      "x",
    );
    const svg = ratioChart(records)?.svg ?? "";
    expect(svg).toContain('class="bench-chart"');
    // One bar each, plus one swatch each in the legend.
    expect(svg.match(/<rect[^>]*class="bar faster"/g)).toHaveLength(2);
    expect(svg.match(/<rect[^>]*class="bar slower"/g)).toHaveLength(2);
    expect(svg.match(/class="target"/g)).toHaveLength(2);
    expect(svg).toContain(">0.500x<");
    expect(svg).toContain(">2.00x<");
    expect(svg).not.toContain("alone");
    expect(ratioChart(parseResults(line({}), "x"))).toBeUndefined();
  });

  it("draws a scale curve per metric across n, and leaves all-zero metrics to the table", () => {
    const records = parseResults(
      [1, 8, 32]
        .flatMap((n) => [
          line({
            bench: "scale",
            case: "local",
            metric: "calls-per-s",
            unit: "1/s",
            value: n * 2,
            params: { n },
          }),
          line({ bench: "scale", case: "local", metric: "errors", unit: "count", value: 0, params: { n } }),
        ])
        .join("\n"),
      "x",
    );
    const charts: { metric: string; svg: string }[] = scaleCharts(records);
    expect(charts.map((c) => c.metric)).toEqual(["calls-per-s"]);
    expect(charts[0]?.svg.match(/<circle/g)).toHaveLength(3);
    expect(charts[0]?.svg).toContain("n=32");
    expect(tableRows(records)).toHaveLength(6);
  });

  it("escapes what it writes into the SVG", () => {
    const records = parseResults(
      line({ case: "<script>", baseline: { name: "a&b", value: 1 }, ratio: 10 }),
      "x",
    );
    const svg = ratioChart(records)?.svg ?? "";
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&#60;script&#62;");
  });

  it("titles each chart visibly with its unit, in seconds once milliseconds reach a second", () => {
    const records = parseResults(
      [1, 8, 32]
        .map((n) => line({ bench: "scale", case: "ssh", metric: "wall", value: 125_000 * n, params: { n } }))
        .join("\n"),
      "x",
    );
    const [chart] = scaleCharts(records) as { unit: string; svg: string; help: string }[];
    expect(chart?.unit).toBe("s");
    expect(chart?.svg).toMatch(
      /<text[^>]*class="chart-title"[^>]*>wall in seconds \(s\), by number of sessions n</,
    );
    expect(chart?.svg).not.toContain("125000");
    expect(chart?.svg).toContain(">4000<"); // 4,000,000 ms at n=32 is 4000 s: the top tick
    expect(displayUnit("ms", [12, 999])).toEqual({ unit: "ms", scale: 1 });
    expect(displayUnit("us", [2500])).toEqual({ unit: "ms", scale: 1000 });
    const ratio = ratioChart(
      parseResults(line({ case: "grep", baseline: { name: "rg", value: 1 }, ratio: 1.2 }), "x"),
    );
    expect(ratio?.svg).toMatch(/<text[^>]*class="chart-title"[^>]*>Time of the Tackle call/);
  });

  it("gives every line a legend entry with a swatch of its colour, and every chart a how-to-read", () => {
    const records = parseResults(
      [1, 8]
        .flatMap((n) => [
          line({ bench: "scale", case: "local", metric: "p50", value: n, params: { n } }),
          line({ bench: "scale", case: "ssh", metric: "p50", value: 2 * n, params: { n } }),
        ])
        .join("\n"),
      "x",
    );
    const [chart] = scaleCharts(records) as { svg: string; help: string }[];
    const strokes = [...(chart?.svg ?? "").matchAll(/<path[^>]*stroke="(#[0-9a-f]+)"/g)].map((m) => m[1]);
    const swatches = [
      ...(chart?.svg ?? "").matchAll(/<rect[^>]*fill="(#[0-9a-f]+)"[^>]*class="swatch"/g),
    ].map((m) => m[1]);
    expect(strokes).toHaveLength(2);
    expect(swatches).toEqual(strokes);
    expect(chart?.svg).toMatch(/class="legend"[^>]*>local</);
    expect(chart?.help).toMatch(/^How to read it: across, the number of sessions/);
    const ratio = ratioChart(parseResults(line({ baseline: { name: "rg", value: 1 }, ratio: 3 }), "x"));
    expect(ratio?.help).toMatch(/^How to read it: each bar is one measurement.*\(rg\)/);
  });

  it("writes long labels in full, wrapped between words, never cut", () => {
    const long = `grep ${"parameter=value ".repeat(12)}end`;
    const records = parseResults(
      line({ case: long, baseline: { name: "rg", value: 1 }, ratio: 2, params: { files: 100000 } }),
      "x",
    );
    const svg = ratioChart(records)?.svg ?? "";
    expect(svg).not.toContain("…");
    const shown = [...svg.matchAll(/class="label"[^>]*>([^<]*)</g)].map((m) => m[1]).join(" ");
    expect(shown).toContain("end");
    expect(shown).toContain("files=100000");
    for (const text of wrapText(long, 40)) expect(text.length).toBeLessThanOrEqual(40);
    expect(wrapText(long, 40).join(" ")).toBe(long.trim());
  });
});
