/**
 * One attempt of an edit against one version of the file: decoded, planned by the edit engine
 * (`planEdits`, its matching rules) and encoded; and what the edit tool says when another writer's
 * change between its read and its commit leaves the edits no longer applying.
 */
import { isToolError, ToolError } from "@tackle/agent-core";
import type { ExtensionContext } from "@tackle/extensions";
import { encodeEditedFile } from "../edit/edited-bytes.js";
import { undecodableMessage, unencodableMessage } from "../edit/messages.js";
import { type EditOutcome, type EditPlan, planEdits } from "../edit/plan.js";
import { wasAppliedBefore } from "../edit/session-edits.js";
import { decodeText, encodeText, encodingLabel, hasLoneSurrogate } from "../text/encoding.js";
import { formatNumberedLines } from "../text/line-numbers.js";
import { sanitizeLines } from "../text/untrusted.js";
import type { shellToolOf } from "../tool-names.js";
import type { EditParams } from "./edit-parameters.js";
import { type CommitAttempt, MAX_COMMIT_ATTEMPTS } from "./write-if-unchanged.js";

/** An edit decoded, planned and encoded against one version of the file. */
export interface PreparedEdit extends CommitAttempt {
  before: Uint8Array;
  decoded: ReturnType<typeof decodeText>;
  plan: EditPlan;
}

/**
 * Decodes `bytes`, plans the edits on them (the engine's `planEdits`, its matching rules) and
 * encodes the result; throws the engine's refusal when they do not apply.
 */
export function prepareEdit(
  ctx: ExtensionContext,
  display: string,
  real: string,
  bytes: Uint8Array,
  params: EditParams,
  shell: ReturnType<typeof shellToolOf>,
): PreparedEdit {
  const decoded = decodeText(bytes);
  // UTF-8 decoded without a replacement character is valid UTF-8, which encodes back to the
  // same bytes; UTF-16 is proven the same way by encoding it again.
  const roundTrips =
    decoded.encoding === "utf8" ||
    sameBytes(encodeText(decoded.text, decoded.encoding, decoded.hasBom), bytes);
  if (decoded.lossy || !roundTrips) {
    throw new ToolError("encoding", undecodableMessage(display, encodingLabel(decoded.encoding), shell), {
      details: { path: display, encoding: decoded.encoding },
    });
  }
  if (decoded.encoding === "utf8" && params.edits.some((edit) => hasLoneSurrogate(edit.newText))) {
    throw new ToolError("encoding", unencodableMessage(display, encodingLabel(decoded.encoding)));
  }
  const plan = planEdits(decoded.text, params.edits, {
    path: display,
    appliedBefore: (edit) => wasAppliedBefore(ctx.reads, real, edit),
    ...(shell ? { shell } : {}),
  });
  return {
    before: bytes,
    decoded,
    plan,
    data: plan.changed ? encodeEditedFile(bytes, decoded, plan) : undefined,
  };
}

/**
 * The edits planned again on the content another writer left (same matching rules). When they no
 * longer apply, a `stale_read` that carries the engine's refusal, which shows the fresh lines.
 */
export function redoOnFresh(
  fresh: Uint8Array | null,
  display: string,
  prepare: (bytes: Uint8Array) => PreparedEdit,
  firstOutcomes: readonly EditOutcome[],
): PreparedEdit {
  if (fresh === null) {
    throw new ToolError(
      "stale_read",
      `${display} was removed by another writer while this edit was being saved; nothing was written. Check with ls whether it still exists.`,
    );
  }
  try {
    return prepare(fresh);
  } catch (error) {
    const why = isToolError(error) ? error.message : String(error);
    const region = freshRegion(fresh, firstOutcomes);
    throw new ToolError(
      "stale_read",
      `${display} was changed by another writer while this edit was being saved, and your edits no longer apply to its new content; nothing was written. ${why}${region.text} Read the file again before editing.`,
      { details: { path: display, freshLines: region.range }, cause: error },
    );
  }
}

/** Lines of the fresh content shown around where the edits applied before (at most this many). */
const FRESH_REGION_MAX_LINES = 12;

/**
 * The fresh content's lines around where the edits applied in the content read first (numbered as
 * read shows them, sanitised as all tool output is), so the model sees what is there now.
 */
function freshRegion(
  fresh: Uint8Array,
  outcomes: readonly EditOutcome[],
): { text: string; range?: [number, number] } {
  const places = outcomes.flatMap((outcome) => outcome.lines);
  if (places.length === 0) return { text: "" };
  const lines = decodeText(fresh).text.replaceAll("\r\n", "\n").split("\n");
  const first = Math.max(1, Math.min(...places) - 2);
  const last = Math.min(lines.length, Math.max(...places) + 2, first + FRESH_REGION_MAX_LINES - 1);
  if (first > last) return { text: "" };
  const shown = sanitizeLines(lines.slice(first - 1, last)).lines;
  const numbered = formatNumberedLines(shown, first).join("\n");
  return {
    text: `\nLines ${first}-${last} (where your edits applied) now read:\n${numbered}\n`,
    range: [first, last],
  };
}

export function busyError(display: string): ToolError {
  return new ToolError(
    "stale_read",
    `${display} kept changing while this edit was being saved (another writer wrote it ${MAX_COMMIT_ATTEMPTS} times in a row); nothing was written. Read it again, then retry the edit.`,
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
