// Small statistics and timing helpers shared by the benchmarks (no dependencies).
import { performance } from "node:perf_hooks";

/** Median of `values` (mean of the two middle values for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p`-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Milliseconds `fn` takes. */
export async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Times each side `rounds` times, interleaved and rotated so no side always runs right after the
 * same neighbour (on a loaded machine, neighbours share the page cache and the CPUs). Returns the
 * samples per side name.
 *
 * @param {Record<string, () => Promise<unknown>>} sides
 * @param {number} rounds
 */
export async function interleave(sides, rounds) {
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      samples[name].push(await time(sides[name]));
    }
  }
  return samples;
}
