// Small SVG helpers for the charts: escaping, number formatting, ticks.

/** Text safe inside SVG/HTML. */
export function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A measurement with its unit, to three significant digits (`1.10x`, `5.72 s`, `84.6 us`). */
export function formatValue(value, unit) {
  if (unit === "ms" && Math.abs(value) >= 1000) return `${precise(value / 1000)} s`;
  return `${precise(value)} ${unit}`;
}

/** Three significant digits, no exponent for the magnitudes benchmarks produce. */
export function precise(value) {
  if (value === 0) return "0";
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(digits, 3));
}

/** Powers of ten from `min` to `max` (inclusive), for a log axis. */
export function decades(min, max) {
  const ticks = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) ticks.push(10 ** e);
  return ticks;
}

/** About five round ticks from 0 to at least `max`, for a linear axis. */
export function linearTicks(max) {
  if (!(max > 0)) return [0, 1];
  const step0 = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= step0) ?? step0;
  const ticks = [];
  for (let t = 0; t < max + step; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}
