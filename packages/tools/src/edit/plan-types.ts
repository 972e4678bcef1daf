/**
 * The shapes of an edit plan: what the model asks for, what each edit did and the replacements
 * to write. Kept apart from the planner so the modules it calls can name them without importing it.
 */
import type { EditDocument, OriginalSpan } from "./document.js";
import type { Elision } from "./elisions.js";
import type { MatcherName } from "./match-edit.js";
import type { FuzzyKind } from "./normalize.js";
import type { Reading } from "./readings.js";
import type { EditTexts } from "./session-edits.js";

/** One requested replacement, as the model sends it. */
export interface EditRequest {
  oldText: string;
  newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
}

/**
 * Why an edit counts as already applied: this session applied the same edit before
 * (`this-session`), the file holds newText with the unchanged lines oldText and newText share
 * around the change (`context`), or every place oldText matches lies inside newText
 * (`old-inside-new`: applying it again would repeat the addition).
 */
export type AlreadyAppliedEvidence = "this-session" | "context" | "old-inside-new";

/** What happened to one edit. */
export interface EditOutcome {
  index: number;
  status: "applied" | "already_applied";
  /** Set when already applied: the evidence for it. */
  evidence?: AlreadyAppliedEvidence;
  /** Set when applied. */
  matcher?: MatcherName;
  /** Kinds of difference a fuzzy match forgave (empty for exact). */
  fuzzyKinds: FuzzyKind[];
  /** How many places were replaced (0 when already applied). */
  occurrences: number;
  /** 1-based line of each replaced place in the original, or where newText already is. */
  lines: number[];
  /** Placeholders in newText (`// ... existing code ...`) that stood for oldText lines, which were kept. */
  elisions?: Elision[];
  /**
   * Set when the edit as sent matched nowhere and another reading did: `unescaped` (oldText and
   * newText had been JSON-escaped twice), `sequential` (oldText matches the file as the earlier
   * edits of the call leave it; `lines` are then lines of that intermediate text).
   */
  reading?: Reading;
}

/** One replacement in the LF view of the original. */
export interface Replacement {
  edit: number;
  start: number;
  end: number;
  /** Replacement text with LF line breaks. */
  text: string;
}

/** The result of matching all edits against the original: nothing is written yet. */
export interface EditPlan {
  document: EditDocument;
  outcomes: EditOutcome[];
  /** Sorted by `start`; never overlapping. */
  replacements: Replacement[];
  /** The replacements placed in the original text, in the file's own line endings. */
  spans: OriginalSpan[];
  /** The new file text, in the file's own line endings (no BOM). */
  readonly text: string;
  /** False when every edit was already applied. */
  changed: boolean;
  /** The applied edits as matched (LF, copied markers removed), to remember once written. */
  applied: EditTexts[];
}

/** Options of {@link planEdits}. */
export interface PlanOptions {
  /** The path as shown in messages. */
  path: string;
  /** True when this session applied this very edit to the file before (see `session-edits.ts`). */
  appliedBefore?: (edit: EditTexts) => boolean;
  /** The shell tool the model has, named where a refusal suggests one; none when absent. */
  shell?: string;
}
