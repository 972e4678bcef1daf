import type { TSchema } from "@sinclair/typebox";
import { shortenInput } from "./quote-input.js";
import type { ArgumentProblem } from "./validation-message.js";

/** Characters of a sent field name quoted in a problem line. */
const QUOTE_CHARS = 60;

/** Object fields looked at per call: a model's arguments hold a few; a huge object is not searched. */
const FIELDS_SCANNED = 200;

/**
 * Fields sent under a misspelt name: an unknown key that is close to a declared field the call
 * did not send (`patern` for `pattern`, `glbo` for `glob`, `old_text` for `oldText`). Lenient
 * normalisation drops unknown keys, which is right for a stray field but silently changes the
 * call when the key was meant as one of the schema's own (grep without its `pattern`, or with
 * its `glob` ignored): such a call is refused with "did you mean" instead.
 *
 * Looks at the top-level object and at objects inside arrays of objects (edit's `edits`).
 * An unknown key near a field that was sent as well is left alone (the call already says what it
 * means), as is any key of a schema that allows additional properties. Must not throw.
 *
 * @example
 * ```ts
 * misspeltFieldProblems(Type.Object({ pattern: Type.String() }), { patern: "x" });
 * // -> [{ field: "patern", expected: "a field the tool declares", received: 'string "x"', fix: "Did you mean `pattern`? ..." }]
 * ```
 */
export function misspeltFieldProblems(schema: TSchema, value: unknown): ArgumentProblem[] {
  try {
    const problems: ArgumentProblem[] = [];
    visit(schema, value, "", problems);
    return problems;
  } catch {
    return [];
  }
}

function visit(schema: TSchema, value: unknown, path: string, problems: ArgumentProblem[]): void {
  if (schema.type === "array" && Array.isArray(value)) {
    const items = schema.items as TSchema | undefined;
    if (items?.type !== "object") return;
    value.slice(0, FIELDS_SCANNED).forEach((item, i) => {
      visit(items, item, `${path}[${i}]`, problems);
    });
    return;
  }
  if (schema.type !== "object" || typeof value !== "object" || value === null || Array.isArray(value)) return;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return;
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const sent = Object.keys(value).slice(0, FIELDS_SCANNED);
  const unsent = Object.keys(properties).filter((name) => !Object.hasOwn(value, name));
  for (const key of sent) {
    const field = path === "" ? key : `${path}.${key}`;
    const property = properties[key];
    if (Object.hasOwn(properties, key) && property !== undefined) {
      visit(property, (value as Record<string, unknown>)[key], field, problems);
      continue;
    }
    const meant = nearestName(key, unsent);
    if (meant === undefined) continue;
    const target = path === "" ? meant : `${path}.${meant}`;
    problems.push({
      field: shortenInput(field, QUOTE_CHARS),
      expected: "a field the tool declares",
      received: describeSent((value as Record<string, unknown>)[key]),
      fix: `Did you mean \`${target}\`? Send the value as \`${target}\`.`,
    });
  }
}

function describeSent(value: unknown): string {
  if (typeof value === "string") return `string ${JSON.stringify(shortenInput(value, QUOTE_CHARS))}`;
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/** `old_text`, `Old-Text` and `oldtext` all read as `oldtext`. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/**
 * The declared name `key` most likely misspells: equal once case and separators are folded, or
 * within one edit (two for names of six characters or more), a swap of neighbours counting as
 * one. Undefined when none is that close, or when two are equally close.
 */
export function nearestName(key: string, names: readonly string[]): string | undefined {
  const folded = fold(key);
  if (folded.length === 0 || key.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const name of names) {
    const target = fold(name);
    const allowed = target.length >= 6 ? 2 : 1;
    const distance = editDistance(folded, target, allowed);
    if (distance > allowed) continue;
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/**
 * Edit distance with adjacent swaps (optimal string alignment), stopping early: any answer above
 * `limit` is reported as `limit + 1`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit + 1, limit + 1);
}
