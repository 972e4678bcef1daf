import type { ToolOutcome } from "@tackle/agent-core";
import { textOf } from "./env.js";

const CLOSE = "\n</tool-output>";

/**
 * A result's text with the tool-output marker of `source` taken off (what was inside it, then any
 * notices after it), so assertions can state the shown text exactly. Text without that marker
 * (errors, "no matches") comes back unchanged, so a missing marker fails an exact assertion.
 */
export function unmarkedTextOf(outcome: ToolOutcome, source: string): string {
  return unmarked(textOf(outcome), source);
}

/** {@link unmarkedTextOf} for a plain string. */
export function unmarked(text: string, source: string): string {
  const open = `<tool-output source="${source}">\n`;
  if (!text.startsWith(open)) return text;
  const end = text.lastIndexOf(CLOSE);
  if (end < open.length - 1) return text;
  return text.slice(open.length, end) + text.slice(end + CLOSE.length);
}
