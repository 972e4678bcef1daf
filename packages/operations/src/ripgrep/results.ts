import { throwIfAborted } from "../errors.js";
import type { GrepEvent } from "../types.js";
import type { RipgrepPlan } from "./args.js";
import { parseGrepRecord, type RipgrepPlatform, ripgrepRelativePath } from "./json-events.js";

/** Output records of one rg run, in batches (see `RecordSplitter`), from an adapter's transport. */
export type RipgrepBatches = AsyncIterable<readonly string[]>;

/**
 * Turns the `--json` records of a `planGrep` run into the request's events: parsed, filtered by
 * the plan's path filter, and cut after `plan.limit` matches. Returning early ends the loop over
 * `batches`, whose cleanup must stop rg (every adapter's transport does): no draining past the
 * limit. Errors of the transport (including `ripgrepExitError`) pass through.
 */
export async function* grepEventsOf(
  batches: RipgrepBatches,
  plan: RipgrepPlan,
  signal: AbortSignal | undefined,
  platform: RipgrepPlatform = "posix",
): AsyncGenerator<GrepEvent> {
  if (plan.limit <= 0) return;
  let found = 0;
  for await (const batch of batches) {
    for (const record of batch) {
      const event = parseGrepRecord(record, platform);
      if (!event || !plan.keeps(event.path)) continue;
      throwIfAborted(signal, "grep");
      yield event;
      if (event.type === "match" && ++found >= plan.limit) return;
    }
  }
}

/** The paths of a `planFiles` run (`--files --null` records), filtered and cut like {@link grepEventsOf}. */
export async function* filePathsOf(
  batches: RipgrepBatches,
  plan: RipgrepPlan,
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
