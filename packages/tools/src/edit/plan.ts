import { isToolError, ToolError } from "@tackle/agent-core";
import {
  expandRedactedPlaceholders,
  hideRevealedInError,
  placeholderRefusalMessage,
  type RevealedSecret,
  redactionSourceOf,
} from "@tackle/session";
import { stripToolOutputMarker } from "../text/untrusted.js";
import { hasSharedContext, insertsText, insideNewText } from "./already-applied.js";
import { findClosestRegion } from "./closest.js";
import {
  createEditDocument,
  type EditDocument,
  type OriginalSpan,
  originalSpans,
  spliceSpans,
} from "./document.js";
import { expandElisions } from "./elisions.js";
import { findExactAll } from "./exact-search.js";
import { FuzzyIndex, findFuzzy } from "./fuzzy.js";
import { LineCounter, positionsOf } from "./line-counter.js";
import { isMatched, matchEdit, type NotMatched } from "./match-edit.js";
import {
  AMBIGUOUS_MAX_LINES,
  ambiguousMessage,
  ambiguousSpellingMessage,
  emptyOldTextMessage,
  identicalTextMessage,
  insideTokenMessage,
  noMatchMessage,
  overlapMessage,
  placeholderMessage,
} from "./messages.js";
import type {
  AlreadyAppliedEvidence,
  EditOutcome,
  EditPlan,
  EditRequest,
  PlanOptions,
  Replacement,
} from "./plan-types.js";
import { planInOrder } from "./sequential.js";
import type { EditTexts } from "./session-edits.js";
import { cutTokens, exactOnBoundaries } from "./token-boundary.js";

export { hasSharedContext, MIN_CONTEXT_LINE_CHARS } from "./already-applied.js";
export type { MatcherName } from "./match-edit.js";
export type {
  AlreadyAppliedEvidence,
  EditOutcome,
  EditPlan,
  EditRequest,
  PlanOptions,
  Replacement,
} from "./plan-types.js";

const toLf = (text: string) => (text.includes("\r") ? text.replace(/\r\n/g, "\n") : text);

/**
 * Matches every edit against the original text and builds the new text. Exact matching comes
 * first, and an exact unique match wins before any fuzzy counting; then the fuzzy pass. Throws a
 * `ToolError` (no_match, ambiguous_match, overlapping_edits, invalid_arguments) and changes
 * nothing when any edit fails: all or nothing. When an edit of several matches nowhere in the
 * original but every edit matches once in the text the edits before it leave, the edits are
 * applied in order (each outcome's `reading` is then `sequential`).
 */
export function planEdits(text: string, edits: readonly EditRequest[], options: PlanOptions): EditPlan {
  // Secrets that `[REDACTED:kind]` placeholders stood for: no refusal may show them.
  const revealed: RevealedSecret[] = [];
  const againstOriginal = (t: string, e: readonly EditRequest[], o: PlanOptions) =>
    planAgainstOriginal(t, e, o, revealed);
  try {
    try {
      return againstOriginal(text, edits, options);
    } catch (error) {
      // A later edit written against the result of an earlier one: apply in order, if that works.
      if (edits.length < 2 || !isToolError(error, "no_match")) throw error;
      const inOrder = planInOrder(text, edits, options, againstOriginal);
      if (!inOrder) throw error;
      return inOrder;
    }
  } catch (error) {
    throw revealed.length > 0 && isToolError(error) ? hideRevealedInError(error, revealed) : error;
  }
}

/** {@link planEdits} with every edit matched against the original text. */
function planAgainstOriginal(
  text: string,
  edits: readonly EditRequest[],
  options: PlanOptions,
  revealed: RevealedSecret[],
): EditPlan {
  const document = createEditDocument(text);
  const { lf } = document;
  const counter = new LineCounter(lf);
  let index: FuzzyIndex | undefined;
  const fuzzyIndex = () => {
    index ??= new FuzzyIndex(lf);
    return index;
  };
  const outcomes: EditOutcome[] = [];
  const replacements: Replacement[] = [];
  const applied: EditTexts[] = [];
  const alreadyApplied = (i: number, evidence: AlreadyAppliedEvidence, lines: number[]) =>
    outcomes.push({ index: i, status: "already_applied", evidence, fuzzyKinds: [], occurrences: 0, lines });

  const texts = edits.map((edit, i) =>
    revealPlaceholders(lf, i, unwrapCopied(lf, toLf(edit.oldText), toLf(edit.newText)), options, revealed),
  );
  // Every edit's exact places in one pass over the file; the checks below still run edit by edit.
  const exactStarts = findExactAll(
    lf,
    texts.map((text) => text.oldText),
  );

  edits.forEach((edit, i) => {
    const { oldText, newText: sent } = texts[i] as EditTexts;
    if (oldText === "") throw new ToolError("invalid_arguments", emptyOldTextMessage(i));
    if (oldText === sent) throw new ToolError("invalid_arguments", identicalTextMessage(i));
    const elided = expandElisions(oldText, sent);
    if ("refused" in elided) {
      throw new ToolError("invalid_arguments", placeholderMessage(i, options.path, elided.refused), {
        details: { edit: i, field: "newText", reason: "placeholder", ...elided.refused },
      });
    }
    const newText = elided.newText;
    const matched = matchEdit(lf, fuzzyIndex, oldText, newText, exactStarts[i] as number[]);
    if (!isMatched(matched)) {
      const found = findNewText(lf, fuzzyIndex, newText);
      const evidence = options.appliedBefore?.({ oldText, newText })
        ? "this-session"
        : hasSharedContext(oldText, newText) && insertsText(oldText, newText)
          ? "context"
          : undefined;
      // This session's own edit: newText anywhere (or gone entirely for a deletion) is its trace.
      // Context alone: newText must sit in exactly one place (each place, for replaceAll).
      const convincing =
        evidence === "this-session"
          ? found.length > 0 || newText.trim() === ""
          : evidence === "context" && (found.length === 1 || (edit.replaceAll === true && found.length > 1));
      if (evidence && convincing) {
        alreadyApplied(i, evidence, counter.linesOf(found.slice(0, 1)));
        return;
      }
      if (matched.insideToken.length > 0) throw insideTokenError(lf, counter, i, oldText, matched, options);
      const region = findClosestRegion(fuzzyIndex(), oldText);
      const newTextLines = counter.linesOf(found);
      throw new ToolError("no_match", noMatchMessage(i, options.path, region, newTextLines), {
        details: { edit: i, closestRegion: region, newTextLines },
      });
    }
    if (matched.ambiguous) {
      throw new ToolError("invalid_arguments", ambiguousSpellingMessage(i, options.path, matched.ambiguous), {
        details: { edit: i, field: "newText", reason: "ambiguous_spelling", characters: matched.ambiguous },
      });
    }
    const starts = matched.ranges.map((range) => range.start);
    if (
      matched.matcher === "exact" &&
      insideNewText(lf, starts, matched.oldText, matched.texts[0] as string)
    ) {
      // Re-sent edit whose newText contains oldText: applying it again would double it.
      alreadyApplied(i, "old-inside-new", counter.linesOf(starts));
      return;
    }
    // Two places that overlap are two places too (`a\na` in `a\na\na`).
    const places = matched.overlapping ? [...starts, matched.overlapping.start] : starts;
    if (places.length > 1 && !edit.replaceAll) {
      const positions = positionsOf(lf, counter, places);
      throw new ToolError("ambiguous_match", ambiguousMessage(i, options.path, places.length, positions), {
        details: {
          edit: i,
          matches: places.length,
          lines: positions.map((at) => at.line),
          columns: positions.map((at) => at.column),
          matcher: matched.matcher,
        },
      });
    }
    matched.ranges.forEach((range, r) => {
      replacements.push({ edit: i, ...range, text: matched.texts[r] as string });
    });
    applied.push({ oldText, newText });
    outcomes.push({
      index: i,
      status: "applied",
      matcher: matched.matcher,
      fuzzyKinds: matched.kinds,
      occurrences: matched.ranges.length,
      lines: counter.linesOf(starts),
      ...(elided.kept.length > 0 ? { elisions: elided.kept } : {}),
      ...(matched.reading ? { reading: matched.reading } : {}),
    });
  });

  replacements.sort((a, b) => a.start - b.start || a.edit - b.edit);
  for (let r = 1; r < replacements.length; r++) {
    const before = replacements[r - 1] as Replacement;
    const after = replacements[r] as Replacement;
    if (before.end > after.start) {
      const [first, second] =
        before.edit < after.edit ? [before.edit, after.edit] : [after.edit, before.edit];
      const line = counter.linesOf([after.start])[0] as number;
      throw new ToolError("overlapping_edits", overlapMessage(first, second, options.path, line), {
        details: { edits: [first, second], line },
      });
    }
  }

  return new PlannedEdits(document, outcomes, replacements, originalSpans(document, replacements), applied);
}

/**
 * An {@link EditPlan} whose `text` is built on first use: the edit tool writes bytes spliced
 * from `spans` and never needs it. A class, not a literal with a getter: a literal's getter is a
 * new closure per plan, and each would give its object a hidden class of its own.
 */
class PlannedEdits implements EditPlan {
  #text: string | undefined;
  readonly changed: boolean;

  constructor(
    readonly document: EditDocument,
    readonly outcomes: EditOutcome[],
    readonly replacements: Replacement[],
    readonly spans: OriginalSpan[],
    readonly applied: EditTexts[],
  ) {
    this.changed = replacements.length > 0;
  }

  get text(): string {
    this.#text ??= spliceSpans(this.document.original, this.spans);
    return this.#text;
  }
}

/**
 * Takes off a tool-output marker copied on its own lines around oldText (and newText), unless
 * the file itself holds oldText as given.
 */
function unwrapCopied(lf: string, oldText: string, newText: string): { oldText: string; newText: string } {
  // Without a marker there is nothing to take off (and no need to search the file for oldText).
  const unwrapped = stripToolOutputMarker(oldText);
  if (unwrapped === oldText || lf.includes(oldText)) return { oldText, newText };
  return { oldText: unwrapped, newText: stripToolOutputMarker(newText) };
}

/**
 * Puts back the secrets that `[REDACTED:<kind>]` placeholders copied from redacted output stand
 * for (see `expandRedactedPlaceholders`), so a line holding a secret can be edited unseen; refuses
 * with `redacted_text` when a placeholder stands for no unique hidden value. `revealed` collects
 * the values, so no message shows them.
 */
function revealPlaceholders(
  lf: string,
  i: number,
  texts: EditTexts,
  { path, shell }: PlanOptions,
  revealed: RevealedSecret[],
): EditTexts {
  const expanded = expandRedactedPlaceholders(lf, texts.oldText, texts.newText, redactionSourceOf(path));
  if (!expanded.ok) {
    const { refusal, field, placeholders } = expanded;
    throw new ToolError(
      "redacted_text",
      placeholderRefusalMessage(i, path, refusal, field, placeholders, shell),
      {
        details: { edit: i, field, reason: refusal, placeholders },
      },
    );
  }
  revealed.push(...expanded.revealed);
  return { oldText: expanded.oldText, newText: expanded.newText };
}

/** Starts of newText in the file (on token boundaries): exact places, else fuzzy ones; none for a blank newText. */
function findNewText(lf: string, fuzzyIndex: () => FuzzyIndex, newText: string): number[] {
  if (newText.trim() === "") return [];
  const exact = exactOnBoundaries(lf, newText).starts;
  if (exact.length > 0) return exact;
  return findFuzzy(fuzzyIndex(), newText).ranges.map((range) => range.start);
}

/** The refusal for an oldText found only inside longer tokens: each token and its line. */
function insideTokenError(
  lf: string,
  counter: LineCounter,
  i: number,
  oldText: string,
  matched: NotMatched,
  { path }: PlanOptions,
): ToolError {
  const places = matched.insideToken.slice(0, AMBIGUOUS_MAX_LINES).map((range) => {
    const lineStart = lf.lastIndexOf("\n", range.start - 1) + 1;
    const lineEnd = lf.indexOf("\n", range.start);
    return {
      line: counter.lineOf(range.start),
      tokens: cutTokens(lf, range.start, range.end),
      text: lf.slice(lineStart, lineEnd === -1 ? lf.length : lineEnd),
    };
  });
  return new ToolError("no_match", insideTokenMessage(i, path, oldText, places, matched.insideToken.length), {
    details: {
      edit: i,
      reason: "inside_token",
      insideToken: places.map(({ line, tokens }) => ({ line, tokens })),
    },
  });
}
