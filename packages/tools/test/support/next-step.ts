/**
 * The rule every refusal and failure text is held to: besides what went wrong it names what to
 * do instead, as an instruction. Checked as a clause that starts with an imperative verb (at
 * the start of the text, after a sentence or clause mark, or after a line break), or as a
 * "Did you mean ...?" suggestion. "timeout must be a positive number (max 600); got -1." states
 * a rule and fails it; "... Send timeout as seconds above 0 ..." passes. Tool names that are
 * verbs too (read, edit) are left out: "read shows text only" states a fact.
 */

/** Verbs a next step starts with, as the tools word them. */
const NEXT_STEP_VERBS = [
  "add",
  "ask",
  "call",
  "change",
  "check",
  "copy",
  "create",
  "give",
  "inspect",
  "leave",
  "list",
  "make",
  "name",
  "narrow",
  "pass",
  "pipe",
  "point",
  "remove",
  "retry",
  "run",
  "send",
  "split",
  "tell",
  "use",
];

const NEXT_STEP = new RegExp(
  `(?:^|[.;:!?]\\s+|\\n\\s*|,\\s+(?:or|then)\\s+)(?:${NEXT_STEP_VERBS.join("|")})\\b|\\bDid you mean\\b`,
  "i",
);

/** True when `text` tells the model what to send or do next. */
export function namesNextStep(text: string): boolean {
  return NEXT_STEP.test(text);
}
