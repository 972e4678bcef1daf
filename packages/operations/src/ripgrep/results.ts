import { throwIfAborted } from "../errors.js";
import type { GrepEvent } from "../types.js";
import type { RipgrepPlan } from "./args.js";
import type { GrepLine } from "./grep-output.js";
import { type RipgrepPlatform, ripgrepRelativePath } from "./paths.js";

/**
 * Output records of one rg run, in batches (what the plan's reader returned per chunk), from an
 * adapter's transport.
 */
export type RipgrepBatches<T = string> = AsyncIterable<readonly T[]>;

/**
 * Turns the lines of a `planGrep` run into the request's events: paths made request-relative,
 * filtered by the plan's path filter, and cut after `plan.limit` matches. Returning early ends
 * the loop over `batches`, whose cleanup must stop rg (every adapter's transport does): no
 * draining past the limit. Errors of the transport (including `ripgrepExitError`) pass through.
 */
export async function* grepEventsOf(
  batches: RipgrepBatches<GrepLine>,
  plan: RipgrepPlan<GrepLine>,
  signal: AbortSignal | undefined,
  platform: RipgrepPlatform = "posix",
): AsyncGenerator<GrepEvent> {
  if (plan.limit <= 0) return;
  let found = 0;
  for await (const batch of batches) {
    for (const line of batch) {
      const path = ripgrepRelativePath(line.path, platform);
      if (!plan.keeps(path)) continue;
      throwIfAborted(signal, "grep");
      const event: GrepEvent = { type: line.type, path, lineNumber: line.lineNumber, line: line.line };
      if (line.truncated) event.truncated = true;
      yield event;
      if (event.type === "match" && ++found >= plan.limit) return;
    }
  }
}

/** The paths of a `planFiles` run (`--files --null` records), filtered and cut like {@link grepEventsOf}. */
export async function* filePathsOf(
  batches: RipgrepBatches<string>,
  plan: RipgrepPlan<string>,
  signal: AbortSignal | undefined,
  platform: RipgrepPlatform = "posix",
): AsyncGenerator<string> {
  if (plan.limit <= 0) return;
  let count = 0;
  for await (const batch of batches) {
    for (const record of batch) {
      if (record === "") continue;
      const path = ripgrepRelativePath(record, platform);
      if (!plan.keeps(path)) continue;
      throwIfAborted(signal, "files");
      yield path;
      if (++count >= plan.limit) return;
    }
  }
}
