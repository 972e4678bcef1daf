/**
 * The sequential reading of a multi-edit call: a model often writes a later oldText against the
 * file as its earlier edits leave it. Tried only when the original-file reading finds no place for
 * an edit; used only when each edit, in order, matches exactly once in the text before it.
 */
import { createEditDocument } from "./document.js";
import type { EditOutcome, EditPlan, EditRequest, PlanOptions, Replacement } from "./plan-types.js";
import type { EditTexts } from "./session-edits.js";

/** Plans edits against one text (the original-file reading), throwing a `ToolError` on failure. */
type PlanOnce = (text: string, edits: readonly EditRequest[], options: PlanOptions) => EditPlan;

/**
 * Applies the edits one after another, each matched in the text the ones before it left.
 * Undefined when any of them fails there, is already applied, or changes nothing.
 */
export function planInOrder(
  text: string,
  edits: readonly EditRequest[],
  options: PlanOptions,
  planOnce: PlanOnce,
): EditPlan | undefined {
  const outcomes: EditOutcome[] = [];
  const applied: EditTexts[] = [];
  let current = text;
  for (const [index, edit] of edits.entries()) {
    let step: EditPlan;
    try {
      step = planOnce(current, [edit], {
        path: options.path,
        ...(options.shell ? { shell: options.shell } : {}),
      });
    } catch {
      return undefined;
    }
    const outcome = step.outcomes[0];
    if (!step.changed || outcome?.status !== "applied") return undefined;
    outcomes.push({ ...outcome, index, reading: "sequential" });
    applied.push(...step.applied);
    current = step.text;
  }
  return wholeChange(text, current, outcomes, applied);
}

/** A plan that turns `before` into `after` with one replacement spanning what differs. */
function wholeChange(before: string, after: string, outcomes: EditOutcome[], applied: EditTexts[]): EditPlan {
  const document = createEditDocument(before);
  const lfAfter = createEditDocument(after).lf;
  const differs = (a: string, b: string) => {
    let start = 0;
    const shorter = Math.min(a.length, b.length);
    while (start < shorter && a[start] === b[start]) start++;
    let end = 0;
    while (end < shorter - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
    return { start, endA: a.length - end, endB: b.length - end };
  };
  const lf = differs(document.lf, lfAfter);
  const replacements: Replacement[] = [
    { edit: 0, start: lf.start, end: lf.endA, text: lfAfter.slice(lf.start, lf.endB) },
  ];
  const raw = differs(before, after);
  return {
    document,
    outcomes,
    replacements,
    spans: [{ start: raw.start, end: raw.endA, text: after.slice(raw.start, raw.endB) }],
    text: after,
    changed: true,
    applied,
  };
}
