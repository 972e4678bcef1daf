import { readdir } from "node:fs/promises";

/**
 * Reading /proc for many commands at once. Every command that ends looks for what is left of it
 * (its process group, its descendants, the processes carrying its environment marker), which
 * means reading one file per process of the machine. Done per command, 128 commands ending
 * together opened over 11,000 files at once and read every process 128 times. Here requests made
 * together share one scan, and a scan keeps at most {@link PROC_READS_AT_ONCE} files open.
 */

/** Files of /proc one scan reads at the same time. */
export const PROC_READS_AT_ONCE = 32;

/** Numeric entries of /proc, i.e. every process id. */
export async function procPids(): Promise<number[]> {
  const names = await readdir("/proc");
  return names.filter((name) => /^\d+$/.test(name)).map(Number);
}

/** Calls `read` for every item, at most `limit` calls running at once. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  read: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await read(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Coalesces requests for a scan: the requests made while no scan runs (in the same turn of the
 * event loop) share the next one; a request made while a scan runs waits for the scan after it.
 * So every answer comes from a scan that started after its request was made (no stale answer:
 * a command asking what is left of it after its exit must not get a listing from before), and at
 * most one scan runs at a time.
 */
export class SharedScan<Request, Answer> {
  readonly #scan: (requests: readonly Request[]) => Promise<Answer[]>;
  #pending: { request: Request; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];
  #running = false;

  /** `scan` answers a batch of requests, one answer per request, in their order. */
  constructor(scan: (requests: readonly Request[]) => Promise<Answer[]>) {
    this.#scan = scan;
  }

  request(request: Request): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ request, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    // Let the requests of this turn join the first scan.
    await Promise.resolve();
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        const answers = await this.#scan(batch.map((entry) => entry.request));
        batch.forEach((entry, index) => {
          entry.resolve(answers[index] as Answer);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.#running = false;
  }
}
