// The Benchmarks page's charts, drawn as inline SVG at build time from the measurements (no chart
// library, nothing loaded in the browser): per benchmark, each case's ratio to its raw baseline
// measured in the same run, and the scale curves (a metric across the number of sessions `n`).
import { decades, escapeXml, formatValue, linearTicks, precise } from "./svg.mjs";

const WIDTH = 720;
const LABEL = 250;
const ROW = 26;
const PLOT = WIDTH - LABEL - 90;
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

/**
 * Bars of `ratio` (the Tackle call over its raw baseline, same run) on a log axis with the 1x
 * line; a target on the ratio is drawn as a tick. Undefined when no measurement has a baseline.
 */
export function ratioChart(records) {
  const rows = records.filter((r) => r.baseline && typeof r.ratio === "number" && r.ratio > 0);
  if (rows.length === 0) return undefined;
  const ratios = rows.map((r) => r.ratio);
  const ticks = decades(Math.min(0.5, ...ratios), Math.max(2, ...ratios));
  const lo = Math.log10(ticks[0]);
  const hi = Math.log10(ticks.at(-1));
  const x = (ratio) => LABEL + ((Math.log10(ratio) - lo) / (hi - lo)) * PLOT;
  const top = 24;
  const height = top + rows.length * ROW + 8;
  const parts = [];
  for (const tick of ticks) {
    parts.push(
      `<line x1="${x(tick)}" y1="${top - 4}" x2="${x(tick)}" y2="${height - 6}" class="grid${tick === 1 ? " one" : ""}"/>`,
    );
    parts.push(
      `<text x="${x(tick)}" y="${top - 10}" class="tick" text-anchor="middle">${precise(tick)}x</text>`,
    );
  }
  rows.forEach((r, i) => {
    const y = top + i * ROW;
    const label = [r.case, r.metric, paramsLabel(r.params)].filter(Boolean).join(" ");
    const title = `${label}: ${formatValue(r.value, r.unit)} vs ${r.baseline.name} ${formatValue(r.baseline.value, r.unit)}`;
    const worse = r.ratio > 1;
    parts.push(`<g><title>${escapeXml(title)}</title>`);
    parts.push(
      `<text x="${LABEL - 8}" y="${y + 16}" class="label" text-anchor="end">${escapeXml(label.length > 38 ? `${label.slice(0, 37)}…` : label)}</text>`,
    );
    const from = x(1);
    const to = x(r.ratio);
    parts.push(
      `<rect x="${Math.min(from, to)}" y="${y + 5}" width="${Math.max(1, Math.abs(to - from))}" height="${ROW - 10}" class="${worse ? "bar slower" : "bar faster"}"/>`,
    );
    parts.push(`<text x="${Math.max(from, to) + 6}" y="${y + 16}" class="value">${precise(r.ratio)}x</text>`);
    if (r.target?.of === "ratio")
      parts.push(
        `<line x1="${x(r.target.value)}" y1="${y + 2}" x2="${x(r.target.value)}" y2="${y + ROW - 2}" class="target"/>`,
      );
    parts.push("</g>");
  });
  return svg(height, "Ratio to the raw baseline, log scale (1x = as fast as the baseline)", parts);
}

/**
 * Scale curves: for each metric measured at several `n`, one line per case (and per `tool`
 * parameter) across `n`. Returns `[{ metric, unit, svg }]`.
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
    charts.push({ metric, unit, svg: lineChart(metric, unit, ns, series) });
  }
  return charts;
}

function lineChart(metric, unit, ns, series) {
  const max = Math.max(...[...series.values()].flat().map(([, v]) => v));
  const yTicks = linearTicks(max);
  const top = 16;
  const plotHeight = 180;
  const left = 70;
  const plotWidth = WIDTH - left - 190;
  const x = (n) => left + (ns.length === 1 ? 0 : (ns.indexOf(n) / (ns.length - 1)) * plotWidth);
  const y = (v) => top + plotHeight - (v / yTicks.at(-1)) * plotHeight;
  const parts = [];
  for (const t of yTicks) {
    parts.push(`<line x1="${left}" y1="${y(t)}" x2="${left + plotWidth}" y2="${y(t)}" class="grid"/>`);
    parts.push(`<text x="${left - 6}" y="${y(t) + 4}" class="tick" text-anchor="end">${precise(t)}</text>`);
  }
  for (const n of ns)
    parts.push(
      `<text x="${x(n)}" y="${top + plotHeight + 16}" class="tick" text-anchor="middle">n=${n}</text>`,
    );
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
    parts.push(
      `<text x="${left + plotWidth + 12}" y="${top + 12 + i * 16}" class="label" fill="${color}">${escapeXml(name)}</text></g>`,
    );
  });
  return svg(top + plotHeight + 26, `${metric} (${unit}) by number of sessions`, parts);
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
