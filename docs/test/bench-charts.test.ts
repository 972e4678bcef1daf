import { describe, expect, it } from "vitest";
import { benchGroups, ratioChart, scaleCharts, tableRows } from "../.vitepress/bench/charts.mjs";
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
    const svg = ratioChart(records) ?? "";
    expect(svg).toContain('class="bench-chart"');
    expect(svg.match(/class="bar faster"/g)).toHaveLength(1);
    expect(svg.match(/class="bar slower"/g)).toHaveLength(1);
    expect(svg.match(/class="target"/g)).toHaveLength(1);
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
    const svg = ratioChart(records) ?? "";
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&#60;script&#62;");
  });
});
