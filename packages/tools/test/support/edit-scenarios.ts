/**
 * Scenarios for the edit engine's property test: a code-like file (Unicode quotes, dashes, NBSP
 * indentation, emoji with joiners, NFD names, decimals, identifiers that contain each other,
 * trailing whitespace), one intended change, and the call a model makes for it, perturbed the way
 * models perturb calls. Each scenario knows the file the change is meant to produce, or that no
 * such file exists (the call can only be refused).
 */
import fc from "fast-check";
import type { EditRequest } from "../../src/edit/plan.js";

const IDS = ["a", "b", "total", "subtotal", "total_2", "get", "get_all", "value", "x1", "x10"];
const NUMS = ["1", "30", "300", "1.5", "1.50", "42", "7"];
const WORDS = ["alpha", "beta", "gamma", "delta"];
const INDENTS = ["", "  ", "    ", "\t", "\u00A0\u00A0"];
/** An indentation no generated line has: a re-indented oldText can match nothing else. */
const FOREIGN_INDENT = "\t\t\t";

/** Identifiers (letters with their accents) and numbers, as the engine delimits tokens. */
const TOKEN = /[\p{L}_][\p{L}\p{M}\p{N}_]*|\d+(?:\.\d+)?/gu;

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length] as T;

/** One file line from a few integers: the shape and every choice in it. */
function line(shape: number, x: number, y: number, z: number): string {
  const id = pick(IDS, x);
  const num = pick(NUMS, y);
  const word = pick(WORDS, z);
  const quotes = pick(
    [
      ['"', '"'],
      ["\u201C", "\u201D"],
    ],
    x + z,
  );
  const dash = pick(["-", "\u2013", "\u2014"], y + z);
  const body = pick(
    [
      `${id} = ${num};`,
      `${id}(${pick(IDS, y)}, ${num});`,
      `print(f${quotes[0]}hello {${id}}${quotes[1]})`,
      `label = ${quotes[0]}${word} ${dash} ${pick(WORDS, x)}${quotes[1]}`,
      `// ${word} ${pick(WORDS, y)} ${id}`,
      `emoji = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467} ${word}"`,
      `name = "${pick(["Cafe\u0301", "Caf\u00E9"], y)} ${word}"`,
      `total = subtotal + total_2 * ${num}`,
      `note = \u2018it\u2019s ${word}\u2019`,
      "",
    ],
    shape,
  );
  if (body === "") return "";
  return `${pick(INDENTS, x + y)}${body}${pick(["", "", "", "  "], z + shape)}`;
}

/** The raw choices of one scenario; everything else is derived from them. */
export interface ScenarioSeed {
  lines: [number, number, number, number][];
  crlf: boolean;
  bom: boolean;
  start: number;
  length: number;
  change: number;
  changeAt: number;
  perturbation: Perturbation;
  variant: number;
}

export type Perturbation =
  | "none"
  | "typography"
  | "indentation"
  | "prefixes"
  | "escaping"
  | "placeholder"
  | "stale"
  | "token"
  | "sequential";

export const PERTURBATIONS: readonly Perturbation[] = [
  "none",
  "typography",
  "indentation",
  "prefixes",
  "escaping",
  "placeholder",
  "stale",
  "token",
  "sequential",
];

export const scenarioSeeds: fc.Arbitrary<ScenarioSeed> = fc.record({
  lines: fc.array(fc.tuple(fc.nat(20), fc.nat(40), fc.nat(40), fc.nat(40)), { minLength: 3, maxLength: 14 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  start: fc.nat(100),
  length: fc.integer({ min: 1, max: 4 }),
  change: fc.nat(3),
  changeAt: fc.nat(10),
  perturbation: fc.constantFrom(...PERTURBATIONS),
  variant: fc.nat(1000),
});

/** A scenario: the file, the call, and the file the call is meant to produce (none: refuse). */
export interface Scenario {
  /** The file as it is when the call arrives (LF; `crlf` says how it is written). */
  lines: string[];
  crlf: boolean;
  bom: boolean;
  edits: EditRequest[];
  /** The intended file (LF lines), or undefined when only a refusal is right. */
  intended: string[] | undefined;
  perturbation: Perturbation;
}

const indentOf = (text: string) => /^\s*/u.exec(text)?.[0] ?? "";
const trailingOf = (text: string) => /\s*$/u.exec(text)?.[0] ?? "";

/** The intended change of lines `[start, start + length)`: new lines for that stretch. */
function changeRegion(region: string[], seed: ScenarioSeed): string[] {
  const at = seed.changeAt % region.length;
  const target = region[at] as string;
  const out = [...region];
  switch (seed.change) {
    case 0: {
      // Rename one identifier or number token (whole tokens only, as a model would mean it).
      const tokens = [...target.matchAll(TOKEN)];
      const token = tokens.length > 0 ? tokens[seed.variant % tokens.length] : undefined;
      if (!token) {
        out.splice(at + 1, 0, `${indentOf(target)}inserted_${seed.variant}(9);`);
        break;
      }
      const replacement = /^\d/.test(token[0]) ? `${8000 + seed.variant}` : `renamed_${seed.variant}`;
      out[at] =
        target.slice(0, token.index) + replacement + target.slice((token.index as number) + token[0].length);
      break;
    }
    case 1:
      out.splice(at + 1, 0, `${indentOf(target)}inserted_${seed.variant}(9);`);
      break;
    case 2:
      if (region.length >= 2) out.splice(at, 1);
      else out.splice(at + 1, 0, `${indentOf(target)}inserted_${seed.variant}(9);`);
      break;
    default:
      out[at] =
        `${indentOf(target)}replaced_${seed.variant}();${trailingOf(target.trimStart() === "" ? "" : target)}`;
  }
  return out;
}

const splice = (lines: string[], start: number, end: number, replacement: string[]) => [
  ...lines.slice(0, start),
  ...replacement,
  ...lines.slice(end),
];

/** Builds the scenario of a seed. */
export function buildScenario(seed: ScenarioSeed): Scenario {
  const lines = seed.lines.map(([shape, x, y, z]) => line(shape, x, y, z));
  const start = seed.start % lines.length;
  const end = Math.min(lines.length, start + seed.length);
  const region = lines.slice(start, end);
  const base = { lines, crlf: seed.crlf, bom: seed.bom, perturbation: seed.perturbation };
  const changed = changeRegion(region, seed);
  const oldText = region.join("\n");
  const newText = changed.join("\n");
  const intended = splice(lines, start, end, changed);
  const call = (edits: EditRequest[], target: string[] | undefined): Scenario => ({
    ...base,
    edits,
    intended: target,
  });
  const same = (map: (text: string) => string) => {
    const sent = map(oldText);
    // A perturbation that turned oldText into the exact text of another place makes a fresh,
    // correct call for that place: not a perturbation of this one.
    if (sent !== oldText && lines.join("\n").includes(sent)) return call([{ oldText, newText }], intended);
    return call([{ oldText: sent, newText: map(newText) }], intended);
  };
  switch (seed.perturbation) {
    case "none":
      return same((text) => text);
    case "typography":
      return same((text) => typography(text, seed.variant));
    case "indentation":
      return same((text) =>
        text
          .split("\n")
          .map((row) => (row.trim() === "" ? row : FOREIGN_INDENT + row.trimStart()))
          .join("\n"),
      );
    case "prefixes": {
      const format = pick<(n: number) => string>(
        [(n) => `L${n}: `, (n) => `${n}| `, (n) => `${n}: `, (n) => `${String(n).padStart(6)}\t`],
        seed.variant,
      );
      const number = (text: string) =>
        text
          .split("\n")
          .map((row, i) => format(start + 1 + i) + row)
          .join("\n");
      return same(number);
    }
    case "escaping": {
      // An oldText with nothing to escape reads the same either way; then a literal \n in newText
      // is what the model wrote (print("a\n")), so that call is not a perturbation of this one.
      const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
      return escaped(oldText) === oldText ? same((text) => text) : same(escaped);
    }
    case "placeholder":
      return call([{ oldText, newText: elide(region, changed) }], intended);
    case "stale": {
      // The model read the file before line `stale` changed; its call is built on that reading.
      const stale = seed.variant % lines.length;
      const actual = [...lines];
      actual[stale] = `${indentOf(lines[stale] as string)}stale_${seed.variant}();`;
      // Intended only where oldText still stands, at the same place, in the file as it is now.
      const offset = actual.slice(0, start).join("\n").length + (start > 0 ? 1 : 0);
      const now = actual.join("\n");
      const stands = now.startsWith(oldText, offset);
      // oldText (or a normalised form of it) also elsewhere: the engine cannot tell that from a
      // fresh call for that place (the edit tool's stale_read check refuses it, from the read
      // ledger); not a scenario for the engine alone.
      if (!stands && fold(now).includes(fold(oldText))) return same((text) => text);
      const after = `${now.slice(0, offset)}${newText}${now.slice(offset + oldText.length)}`;
      return {
        ...base,
        lines: actual,
        edits: [{ oldText, newText }],
        intended: stands ? after.split("\n") : undefined,
      };
    }
    case "token":
      return tokenEdit(lines, base, seed) ?? same((text) => text);
    case "sequential":
      return sequentialEdits(lines, base, seed) ?? same((text) => text);
  }
}

/** Text with every difference the fuzzy pass forgives taken out (a generous approximation). */
function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u2018\u2019\u201C\u201D]/g, "'")
    .replace(/"/g, "'")
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/[\u00A0\s]+/g, " ")
    .replace(/\p{M}/gu, "")
    .replace(/[\u200B\u200C\u200D]/g, "");
}

/** Typography a model changes when it copies text: a few of these, chosen by `variant`. */
function typography(text: string, variant: number): string {
  let out = text;
  if (variant & 1) out = out.replace(/[\u201C\u201D]/g, '"').replace(/[\u2018\u2019]/g, "'");
  if (variant & 2) out = out.replace(/[\u2013\u2014]/g, "-");
  if (variant & 4) out = out.replace(/\u00A0/g, " ");
  if (variant & 8) out = out.replace(/\u200D/g, "");
  if (variant & 16) out = out.normalize("NFC");
  if (variant & 32) out = out.replace(/[ \t]+$/gm, "");
  if (variant & 64) {
    let open = true;
    out = out.replace(/"/g, () => {
      open = !open;
      return open ? "\u201D" : "\u201C";
    });
  }
  return out;
}

/** newText with one run of lines it keeps from oldText written as a placeholder comment. */
function elide(region: string[], changed: string[]): string {
  // The first line of newText that oldText has at the same place: a run of one unchanged line.
  const at = changed.findIndex((row, i) => row === region[i] && row.trim() !== "");
  if (at === -1) return changed.join("\n");
  const out = [...changed];
  out[at] = `${indentOf(changed[at] as string)}// ... existing code ...`;
  return out.join("\n");
}

/** oldText = one whole token of a line; the file has tokens that contain it elsewhere. */
function tokenEdit(lines: string[], base: Omit<Scenario, "edits" | "intended">, seed: ScenarioSeed) {
  const row = seed.start % lines.length;
  const text = lines[row] as string;
  const tokens = [...text.matchAll(TOKEN)];
  const token = tokens.length > 0 ? tokens[seed.variant % tokens.length] : undefined;
  if (!token) return undefined;
  const replacement = /^\d/.test(token[0]) ? `${8000 + seed.variant}` : `renamed_${seed.variant}`;
  const intended = [...lines];
  intended[row] =
    text.slice(0, token.index) + replacement + text.slice((token.index as number) + token[0].length);
  return { ...base, edits: [{ oldText: token[0], newText: replacement }], intended };
}

/** Two edits: the second's oldText holds a line the first one inserts. */
function sequentialEdits(lines: string[], base: Omit<Scenario, "edits" | "intended">, seed: ScenarioSeed) {
  const row = seed.start % lines.length;
  if (row + 1 >= lines.length) return undefined;
  const anchor = lines[row] as string;
  const next = lines[row + 1] as string;
  const inserted = `${indentOf(anchor)}inserted_${seed.variant}(9);`;
  const edits = [
    { oldText: anchor, newText: `${anchor}\n${inserted}` },
    { oldText: `${inserted}\n${next}`, newText: `${inserted.replace("(9)", "(10)")}\n${next}` },
  ];
  return { ...base, edits, intended: splice(lines, row + 1, row + 1, [inserted.replace("(9)", "(10)")]) };
}
