import { setTimeout as sleep } from "node:timers/promises";

/** The AI SDK's retry defaults: 2 retries, 2 s before the first, doubling. */
export const RETRY_DEFAULTS = { maxRetries: 2, initialDelayMs: 2_000, backoffFactor: 2 } as const;

/** A request that failed on every attempt; `lastError` is what the provider said last. */
export class RetriesExhaustedError extends Error {
  override readonly name = "RetriesExhaustedError";
  readonly lastError: unknown;
  /** Every attempt's error, in order. */
  readonly errors: unknown[];

  constructor(errors: unknown[]) {
    super(`Failed after ${errors.length} attempts.`);
    this.errors = errors;
    this.lastError = errors.at(-1);
  }
}

/**
 * Starts a request, retrying it while the provider says the failure is temporary: the error's
 * `isRetryable` flag, which the AI SDK's `APICallError` sets for 408, 409, 429 and 5xx. Waits as
 * the provider asks (`retry-after-ms` or `retry-after` response headers, under a minute), else
 * with exponential backoff, like `streamText` does. Only the start of a request is retried: a
 * stream that fails midway has already shown its output.
 *
 * Throws the error itself when it is not retryable or retries are off, and a
 * {@link RetriesExhaustedError} when every attempt failed; an abort while waiting throws the
 * abort reason.
 */
export async function withRetries<T>(
  start: () => PromiseLike<T>,
  options: { maxRetries?: number; signal?: AbortSignal },
): Promise<T> {
  const maxRetries = Math.max(0, options.maxRetries ?? RETRY_DEFAULTS.maxRetries);
  const errors: unknown[] = [];
  let delay: number = RETRY_DEFAULTS.initialDelayMs;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (!isRetryable(error) || options.signal?.aborted) throw error;
      errors.push(error);
      if (errors.length > maxRetries) {
        if (maxRetries === 0) throw error;
        throw new RetriesExhaustedError(errors);
      }
      await sleep(requestedDelay(error) ?? delay, undefined, { signal: options.signal });
      delay *= RETRY_DEFAULTS.backoffFactor;
    }
  }
}

function isRetryable(error: unknown): boolean {
  return (error as { isRetryable?: unknown } | null)?.isRetryable === true;
}

/** The wait the provider asked for, from the response headers of an `APICallError`. */
function requestedDelay(error: unknown): number | undefined {
  const headers = (error as { responseHeaders?: Record<string, string | undefined> }).responseHeaders;
  if (headers === undefined) return undefined;
  let ms: number | undefined;
  const retryAfterMs = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (!Number.isNaN(retryAfterMs)) ms = retryAfterMs;
  const retryAfter = headers["retry-after"];
  if (ms === undefined && retryAfter !== undefined) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && ms < 60_000 ? ms : undefined;
}
