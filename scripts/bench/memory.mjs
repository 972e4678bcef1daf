// Peak memory of a piece of work, as RSS it adds over the process just before it.

/**
 * Runs `work` and returns its result with `addedMb`: the peak RSS during the work minus the RSS
 * just before it (after a GC when `--expose-gc` is on). When the work sets a new high-water mark
 * the kernel's `maxRSS` gives its peak exactly; otherwise (an earlier peak, e.g. module loading,
 * was higher) the peak comes from sampling RSS every few milliseconds during the work.
 *
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ result: T, addedMb: number, beforeMb: number, peakMb: number }>}
 */
export async function measureAddedRss(work) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const maxBefore = process.resourceUsage().maxRSS * 1024;
  let sampled = before;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage().rss);
  }, 2);
  let result;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  sampled = Math.max(sampled, process.memoryUsage().rss);
  const maxAfter = process.resourceUsage().maxRSS * 1024;
  const peak = maxAfter > maxBefore ? maxAfter : sampled;
  const mb = (bytes) => bytes / 1024 / 1024;
  return { result, addedMb: mb(Math.max(0, peak - before)), beforeMb: mb(before), peakMb: mb(peak) };
}
