// The Benchmarks page's charts, drawn as inline SVG at build time from the measurements (no chart
// library, nothing loaded in the browser): per benchmark, each case's ratio to its raw baseline
// measured in the same run, and the scale curves (a metric across the number of sessions `n`).
import { decades, escapeXml, formatValue, linearTicks, precise } from "./svg.mjs";

const WIDTH = 720;
const COLORS = ["#3451b2", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"];

/** `k=v` pairs of a measurement's parameters except the ones named. */
function paramsLabel(params, except = []) {
  return Object.entries(params ?? {})
    .filter(([key]) => !except.includes(key))
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
}

/** The measurements grouped by package and benchmark, in the order they first appear. */
export function benchGroups(records) {
  const groups = new Map();
  for (const record of records) {
    const key = `${record.package} ${record.bench}`;
    if (!groups.has(key)) groups.set(key, { package: record.package, bench: record.bench, records: [] });
    groups.get(key).records.push(record);
  }
  return [...groups.values()];
}

/** Characters of chart text per line at the chart's width (12 px text, about 6.6 px a character). */
const CHARS_PER_LINE = Math.floor((WIDTH - 16) / 6.6);

/** `text` in lines of at most `width` characters, broken between words (never cut). */
export function wrapText(text, width = CHARS_PER_LINE) {
  const lines = [];
  let current = "";
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    if (current !== "" && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === "" ? word : `${current} ${word}`;
  }
  if (current !== "") lines.push(current);
  return lines.length > 0 ? lines : [""];
}

/** Text lines at `x`, the first at `y`, 15 px apart. */
function textLines(lines, x, y, cls, anchor = "start") {
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * 15}" class="${cls}" text-anchor="${anchor}">${escapeXml(line)}</text>`,
    )
    .join("");
}

/** Words for a unit on an axis or in a title. */
const UNIT_WORDS = {
  ms: "milliseconds",
  s: "seconds",
  us: "microseconds",
  MB: "megabytes",
  "1/s": "per second",
  count: "count",
};

/**
 * The unit a chart shows `values` in: milliseconds of a second or more become seconds, and
 * microseconds of a millisecond or more milliseconds, so an axis reads 125 s, not 125000 ms.
 * Returns `{ unit, scale }` (divide a value by `scale`).
 */
export function displayUnit(unit, values) {
  const max = Math.max(0, ...values.map(Math.abs));
  if (unit === "ms" && max >= 1000) return { unit: "s", scale: 1000 };
  if (unit === "us" && max >= 1000) return { unit: "ms", scale: 1000 };
  return { unit, scale: 1 };
}

/** A legend row per entry (`{ swatch, text }`, swatch an SVG element at 0,0 of 14x10), from `y`. */
function legend(entries, y) {
  const parts = [];
  let row = y;
  for (const entry of entries) {
    const lines = wrapText(entry.text, CHARS_PER_LINE - 4);
    parts.push(`<g transform="translate(8,${row - 9})">${entry.swatch}</g>`);
    parts.push(textLines(lines, 28, row, "legend"));
    row += lines.length * 15 + 4;
  }
  return { svg: parts.join(""), bottom: row };
}

/**
 * Bars of `ratio` (the Tackle call over its raw baseline, same run) on a log axis with the 1x
 * line; a target on the ratio is drawn as a tick. Each bar's label is written in full on the line
 * above it. Returns `{ svg, help }` (help: how to read it, one paragraph), or undefined when no
 * measurement has a baseline.
 */
export function ratioChart(records) {
  const rows = records.filter((r) => r.baseline && typeof r.ratio === "number" && r.ratio > 0);
  if (rows.length === 0) return undefined;
  const ratios = rows.map((r) => r.ratio);
  const ticks = decades(Math.min(0.5, ...ratios), Math.max(2, ...ratios));
  const lo = Math.log10(ticks[0]);
  const hi = Math.log10(ticks.at(-1));
  const left = 30; // room for the first tick label, centred on the axis start
  const plot = WIDTH - left - 90;
  const x = (ratio) => left + ((Math.log10(ratio) - lo) / (hi - lo)) * plot;
  const title = "Time of the Tackle call ÷ time of its raw baseline (×, log scale)";
  const parts = [textLines([title], 8, 18, "chart-title")];
  const top = 48;
  const bodies = [];
  let y = top;
  rows.forEach((r) => {
    const label = [r.case, r.metric, paramsLabel(r.params)].filter(Boolean).join(" ");
    const lines = wrapText(`${label} (baseline: ${r.baseline.name})`);
    const hover = `${label}: ${formatValue(r.value, r.unit)} vs ${r.baseline.name} ${formatValue(r.baseline.value, r.unit)}`;
    const barY = y + lines.length * 15 - 4;
    const from = x(1);
    const to = x(r.ratio);
    const body = [`<g><title>${escapeXml(hover)}</title>`, textLines(lines, left, y + 11, "label")];
    body.push(
      `<rect x="${Math.min(from, to)}" y="${barY}" width="${Math.max(1, Math.abs(to - from))}" height="14" class="${r.ratio > 1 ? "bar slower" : "bar faster"}"/>`,
    );
    body.push(
      `<text x="${Math.max(from, to) + 6}" y="${barY + 11}" class="value">${precise(r.ratio)}x</text>`,
    );
    if (r.target?.of === "ratio")
      body.push(
        `<line x1="${x(r.target.value)}" y1="${barY - 3}" x2="${x(r.target.value)}" y2="${barY + 17}" class="target"/>`,
      );
    body.push("</g>");
    bodies.push(body.join(""));
    y = barY + 24;
  });
  for (const tick of ticks) {
    parts.push(
      `<line x1="${x(tick)}" y1="${top - 4}" x2="${x(tick)}" y2="${y - 6}" class="grid${tick === 1 ? " one" : ""}"/>`,
    );
    parts.push(
      `<text x="${x(tick)}" y="${top - 10}" class="tick" text-anchor="middle">${precise(tick)}x</text>`,
    );
  }
  parts.push(...bodies);
  const key = legend(
    [
      {
        swatch: '<rect width="14" height="10" class="bar faster"/>',
        text: "faster than its baseline (left of 1x)",
      },
      {
        swatch: '<rect width="14" height="10" class="bar slower"/>',
        text: "slower than its baseline (right of 1x)",
      },
      {
        swatch: '<line x1="7" y1="-2" x2="7" y2="12" class="target"/>',
        text: "target: the ratio must stay left of it",
      },
    ],
    y + 14,
  );
  parts.push(key.svg);
  const baselines = [...new Set(rows.map((r) => r.baseline.name))].join(", ");
  const help =
    "How to read it: each bar is one measurement, the time of the Tackle call divided by the time " +
    `of the raw work it wraps (${baselines}), both measured in the same run. At 1x the call costs ` +
    "what the raw work costs; a bar to the left of 1x is faster, to the right slower. The axis is " +
    "logarithmic: each grid line is ten times the one before. Hover a bar for the absolute times.";
  return { svg: svg(key.bottom, title, parts), help };
}

/**
 * Scale curves: for each metric measured at several `n`, one line per case (and per `tool`
 * parameter) across `n`. Returns `[{ metric, unit, svg, help }]`, the unit the one drawn.
 */
export function scaleCharts(records) {
  const byMetric = new Map();
  for (const r of records) {
    if (r.baseline || typeof r.params?.n !== "number") continue;
    const key = `${r.metric} ${r.unit}`;
    if (!byMetric.has(key)) byMetric.set(key, { metric: r.metric, unit: r.unit, series: new Map() });
    const series = byMetric.get(key).series;
    const name = [r.case, paramsLabel(r.params, ["n", "cycles"])].filter(Boolean).join(" ");
    if (!series.has(name)) series.set(name, []);
    series.get(name).push([r.params.n, r.value]);
  }
  const charts = [];
  for (const { metric, unit, series } of byMetric.values()) {
    const points = [...series.values()].flat();
    const ns = [...new Set(points.map(([n]) => n))].sort((a, b) => a - b);
    // A curve needs two sizes; an all-zero metric (processes left, errors) is a table row.
    if (ns.length < 2 || points.every(([, v]) => v === 0)) continue;
    const shown = displayUnit(
      unit,
      points.map(([, v]) => v),
    );
    const scaled = new Map(
      [...series].map(([name, pts]) => [name, pts.map(([n, v]) => [n, v / shown.scale])]),
    );
    const words = UNIT_WORDS[shown.unit] ?? shown.unit;
    const help =
      `How to read it: across, the number of sessions running at once (n); up, ${metric} in ` +
      `${words}. Each line is one case, named in the legend below the chart. A flat line means ` +
      `${metric} does not grow with the number of sessions; a line that climbs with n shows the cost ` +
      "of each session added. Hover a line for its values.";
    charts.push({ metric, unit: shown.unit, svg: lineChart(metric, shown.unit, ns, scaled), help });
  }
  return charts;
}

function lineChart(metric, unit, ns, series) {
  const max = Math.max(...[...series.values()].flat().map(([, v]) => v));
  const yTicks = linearTicks(max);
  const words = UNIT_WORDS[unit] ?? unit;
  const title = `${metric} in ${words} (${unit}), by number of sessions n`;
  const top = 44;
  const plotHeight = 180;
  const left = 70;
  const plotWidth = WIDTH - left - 30;
  const x = (n) => left + (ns.length === 1 ? 0 : (ns.indexOf(n) / (ns.length - 1)) * plotWidth);
  const y = (v) => top + plotHeight - (v / yTicks.at(-1)) * plotHeight;
  const parts = [textLines([title], 8, 18, "chart-title")];
  parts.push(
    `<text x="${left - 6}" y="${top - 12}" class="tick" text-anchor="end">${escapeXml(unit)}</text>`,
  );
  for (const t of yTicks) {
    parts.push(`<line x1="${left}" y1="${y(t)}" x2="${left + plotWidth}" y2="${y(t)}" class="grid"/>`);
    parts.push(`<text x="${left - 6}" y="${y(t) + 4}" class="tick" text-anchor="end">${precise(t)}</text>`);
  }
  for (const n of ns)
    parts.push(
      `<text x="${x(n)}" y="${top + plotHeight + 16}" class="tick" text-anchor="middle">n=${n}</text>`,
    );
  const entries = [];
  [...series.entries()].forEach(([name, points], i) => {
    const color = COLORS[i % COLORS.length];
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    const d = sorted
      .map(([n, v], j) => `${j === 0 ? "M" : "L"}${x(n).toFixed(1)},${y(v).toFixed(1)}`)
      .join(" ");
    parts.push(
      `<g><title>${escapeXml(`${name}: ${sorted.map(([n, v]) => `n=${n} ${formatValue(v, unit)}`).join(", ")}`)}</title>`,
    );
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [n, v] of sorted)
      parts.push(`<circle cx="${x(n).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${color}"/>`);
    parts.push("</g>");
    entries.push({
      swatch: `<rect width="14" height="10" fill="${color}" class="swatch"/>`,
      text: name,
    });
  });
  const key = legend(entries, top + plotHeight + 44);
  parts.push(key.svg);
  return svg(key.bottom, title, parts);
}

function svg(height, title, parts) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="bench-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeXml(title)}"><title>${escapeXml(title)}</title>${parts.join("")}</svg>`;
}

/** One row per measurement, for the table under the charts. */
export function tableRows(records) {
  return records.map((r) => ({
    case: r.case,
    params: paramsLabel(r.params),
    metric: r.metric,
    value: `${formatValue(r.value, r.unit)}${r.stat && r.stat !== "single" ? ` (${r.stat}${r.rounds > 1 ? ` of ${r.rounds}` : ""})` : ""}`,
    baseline: r.baseline ? `${r.baseline.name}: ${formatValue(r.baseline.value, r.unit)}` : "",
    ratio: typeof r.ratio === "number" ? `${precise(r.ratio)}x` : "",
    target: r.target
      ? `${r.target.of === "ratio" ? "ratio" : r.metric} ${r.target.op} ${r.target.value}: ${r.pass ? "met" : "not met"}`
      : "",
  }));
}
