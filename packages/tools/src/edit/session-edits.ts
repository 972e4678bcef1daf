/**
 * What this session's edit calls applied, per file: the evidence that lets edit call a re-sent
 * edit "already applied" (the model retrying after a timeout, or repeating itself) instead of
 * guessing from newText being somewhere in the file. Kept per read ledger, since one ledger is
 * one conversation's memory of its files (see `createToolContext({ reads })`).
 */
import type { ReadLedger } from "@tackle/extensions";
import { sha256Hex } from "@tackle/session";

/** Most edits remembered per file; older ones are forgotten first. */
export const REMEMBERED_EDITS_PER_FILE = 64;

/** An edit as the engine matched it (LF line breaks, copied markers removed). */
export interface EditTexts {
  oldText: string;
  newText: string;
}

const appliedByLedger = new WeakMap<ReadLedger, Map<string, string[]>>();
const encoder = new TextEncoder();

function keyOf(edit: EditTexts): string {
  // Hashes, not the texts: a long session must not keep every replaced text alive.
  return sha256Hex(encoder.encode(`${edit.oldText.length}:${edit.oldText}${edit.newText}`));
}

/** Records that the edits were applied to `realPath` (written, not a dry run) in this session. */
export function rememberAppliedEdits(
  ledger: ReadLedger,
  realPath: string,
  edits: readonly EditTexts[],
): void {
  if (edits.length === 0) return;
  let byPath = appliedByLedger.get(ledger);
  if (!byPath) {
    byPath = new Map();
    appliedByLedger.set(ledger, byPath);
  }
  const keys = byPath.get(realPath) ?? [];
  for (const edit of edits) {
    const key = keyOf(edit);
    const at = keys.indexOf(key);
    if (at !== -1) keys.splice(at, 1);
    keys.push(key);
  }
  byPath.set(realPath, keys.slice(-REMEMBERED_EDITS_PER_FILE));
}

/** True when this session applied exactly this edit to `realPath` before. */
export function wasAppliedBefore(ledger: ReadLedger, realPath: string, edit: EditTexts): boolean {
  return appliedByLedger.get(ledger)?.get(realPath)?.includes(keyOf(edit)) ?? false;
}
