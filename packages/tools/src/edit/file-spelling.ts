/**
 * Fuzzy matching finds the place; it never licenses changing bytes the model did not mean to
 * change. The replacement of a fuzzy match is built from the file's own text wherever newText
 * repeats oldText:
 * - a line newText keeps from oldText is written as the file has it (NBSP indentation, zero-width
 *   joiners in emoji, NFD names stay);
 * - on a changed line, the stretch before and after the change is the file's, and characters of
 *   the change that oldText had spelled differently from the file are written the file's way
 *   (straight quotes the model turned curly go back to straight, and the reverse);
 * - where one character of oldText stood for two spellings in the file (a `"` matching both `“`
 *   and `"`), and the change repeats it, the spelling cannot be chosen: the caller refuses.
 */
import { commonLines } from "./line-alignment.js";
import { type FuzzyKind, normalizeLine } from "./normalize.js";

/** A character of newText whose file spelling is not clear. */
export interface AmbiguousSpelling {
  /** The character as newText has it. */
  char: string;
  /** The spellings the file has where oldText had that character. */
  spellings: string[];
}

/** The replacement text, or the characters whose spelling is ambiguous. */
export type Respelled = { text: string } | { ambiguous: AmbiguousSpelling[] };

const ALL_KINDS: ReadonlySet<FuzzyKind> = new Set([
  "trailing-whitespace",
  "quotes",
  "dashes",
  "punctuation",
  "spaces",
  "nfkc",
]);
const QUOTES_ONLY: ReadonlySet<FuzzyKind> = new Set(["quotes"]);
const SPACES_ONLY: ReadonlySet<FuzzyKind> = new Set(["spaces"]);
const ONE_CLUSTER = /^\P{M}\p{M}*$/u;
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gu;
/** Before an opening quote: nothing, a space, an opening bracket or an operator. */
const OPENS_AFTER = /[\s([{<=,;:!?+\-*/&|^~]/u;

/** Aligned cut points of one oldText line and the file text it matched: `old[j]` <-> `file[j]`. */
interface LineCuts {
  old: number[];
  file: number[];
}

/**
 * Cut points where both lines are at a character boundary and their normalised forms agree up
 * to there; the last pair covers trailing whitespace. Undefined when the lines are not equal
 * under normalisation (then nothing is respelled).
 */
function alignLine(oldLine: string, fileLine: string): LineCuts | undefined {
  const old = normalizeLine(oldLine, ALL_KINDS);
  const file = normalizeLine(fileLine, ALL_KINDS);
  const oldBody = old.text.trimEnd();
  const fileBody = file.text.trimEnd();
  if (oldBody !== fileBody) return undefined;
  const oldAt = (k: number) => (old.sources ? (old.sources[k] ?? oldLine.length) : k);
  const fileAt = (k: number) => (file.sources ? (file.sources[k] ?? fileLine.length) : k);
  const cuts: LineCuts = { old: [0], file: [0] };
  for (let k = 1; k <= oldBody.length; k++) {
    const o = k === oldBody.length ? bodyEnd(oldLine, old.text, oldBody.length, oldAt) : oldAt(k);
    const f = k === fileBody.length ? bodyEnd(fileLine, file.text, fileBody.length, fileAt) : fileAt(k);
    if (o !== oldAt(k - 1) && f !== fileAt(k - 1)) {
      cuts.old.push(o);
      cuts.file.push(f);
    }
  }
  if (cuts.old.at(-1) !== oldLine.length || cuts.file.at(-1) !== fileLine.length) {
    cuts.old.push(oldLine.length);
    cuts.file.push(fileLine.length);
  }
  return cuts;
}

/** Offset in the line where the trailing whitespace after `length` normalised characters starts. */
function bodyEnd(line: string, normalized: string, length: number, at: (k: number) => number): number {
  return length < normalized.length ? at(length) : line.length;
}

type Role = "open" | "close" | "indent" | "inner" | "any";

/** What a character does where it stands, so `“` and `”` (or NBSP indentation and inner spaces) map apart. */
function roleOf(char: string, line: string, at: number): Role {
  const folded = normalizeLine(char, QUOTES_ONLY).text;
  if (folded === '"' || folded === "'") {
    const before = at > 0 ? (line[at - 1] as string) : "";
    return before === "" || OPENS_AFTER.test(before) ? "open" : "close";
  }
  if (normalizeLine(char, SPACES_ONLY).text === " ") {
    return line.slice(0, at).trim() === "" ? "indent" : "inner";
  }
  return "any";
}

/** oldText character -> role -> the file's spellings of it. */
type Spellings = Map<string, Map<Role, Set<string>>>;

function record(map: Spellings, oldLine: string, fileLine: string, cuts: LineCuts): void {
  for (let j = 0; j + 1 < cuts.old.length; j++) {
    const oldSeg = oldLine.slice(cuts.old[j], cuts.old[j + 1]);
    const fileSeg = fileLine.slice(cuts.file[j], cuts.file[j + 1]);
    if (!ONE_CLUSTER.test(oldSeg) || !ONE_CLUSTER.test(fileSeg)) continue;
    const role = roleOf(oldSeg, oldLine, cuts.old[j] as number);
    let byRole = map.get(oldSeg);
    if (!byRole) {
      byRole = new Map();
      map.set(oldSeg, byRole);
    }
    let set = byRole.get(role);
    if (!set) {
      set = new Set();
      byRole.set(role, set);
    }
    set.add(fileSeg);
  }
}

/** Keeps only characters that some place spelled differently in the file. */
function differing(map: Spellings): Spellings {
  const kept: Spellings = new Map();
  for (const [char, byRole] of map) {
    if ([...byRole.values()].some((set) => [...set].some((spelling) => spelling !== char))) {
      kept.set(char, byRole);
    }
  }
  return kept;
}

/**
 * The file's spelling of `char` at `at` in `line`: the one spelling oldText's same character had
 * in the same role; a list of candidates when there were several. A role oldText never showed is
 * not guessed from another: a space stays a space (NBSP indentation says nothing about the space
 * between two arguments) and a quote takes the file's only spelling just when it is a straight one.
 */
function spellingOf(map: Spellings, char: string, line: string, at: number): string | string[] {
  const byRole = map.get(char);
  if (!byRole) return char;
  const role = roleOf(char, line, at);
  const forRole = byRole.get(role);
  if (forRole) return forRole.size === 1 ? ([...forRole][0] as string) : [...forRole];
  if (role === "indent" || role === "inner") return char;
  const seen = new Set([...byRole.values()].flatMap((set) => [...set]));
  const only = seen.size === 1 ? ([...seen][0] as string) : undefined;
  if (only !== undefined && (role === "any" || only === '"' || only === "'")) return only;
  return [...seen];
}

interface Respeller {
  line: Spellings;
  all: Spellings;
  ambiguous: Map<string, Set<string>>;
}

/**
 * Writes `line[from, to)` with the file's spellings: from the paired oldText line's characters
 * (`line` map), else from the whole match for non-ASCII characters and indentation only (a
 * model's curly quote never belongs in code whose file has straight ones, a new line takes the
 * file's NBSP indentation, and an ASCII hyphen or quote on a new line stays one).
 */
function respellRange(r: Respeller, line: string, from: number, to: number): string {
  let out = "";
  for (const match of line.slice(from, to).matchAll(CLUSTER)) {
    const char = match[0];
    const at = from + match.index;
    const source = r.line.has(char)
      ? r.line
      : !/^[\x00-\x7F]$/.test(char) || roleOf(char, line, at) === "indent"
        ? r.all
        : undefined;
    const spelled = source ? spellingOf(source, char, line, at) : char;
    if (typeof spelled === "string") {
      out += spelled;
      continue;
    }
    const known = r.ambiguous.get(char) ?? new Set<string>();
    for (const spelling of spelled) known.add(spelling);
    r.ambiguous.set(char, known);
    out += char;
  }
  return out;
}

/** The largest cut at or below `limit`, and the smallest at or above `from`. */
function cutAtOrBelow(cuts: readonly number[], limit: number): number {
  let index = 0;
  while (index + 1 < cuts.length && (cuts[index + 1] as number) <= limit) index++;
  return index;
}

/** A changed line: the file's text before and after the change, the change respelled. */
function respellLine(
  r: Respeller,
  oldLine: string,
  fileLine: string,
  cuts: LineCuts,
  newLine: string,
): string {
  const shorter = Math.min(oldLine.length, newLine.length);
  let prefix = 0;
  while (prefix < shorter && oldLine[prefix] === newLine[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    oldLine[oldLine.length - 1 - suffix] === newLine[newLine.length - 1 - suffix]
  ) {
    suffix++;
  }
  const head = cutAtOrBelow(cuts.old, prefix);
  let tail = cuts.old.length - 1;
  while (tail > head && (cuts.old[tail - 1] as number) >= oldLine.length - suffix) tail--;
  const oldHead = cuts.old[head] as number;
  const oldTailLength = oldLine.length - (cuts.old[tail] as number);
  return (
    fileLine.slice(0, cuts.file[head]) +
    respellRange(r, newLine, oldHead, newLine.length - oldTailLength) +
    fileLine.slice(cuts.file[tail])
  );
}

/**
 * The replacement for a fuzzy match of `oldText` (LF, as matched) over `matched` (the file's text
 * at the match, LF), built from `newText` as described above. When the lines cannot be aligned
 * (they always can for a fuzzy match), newText is returned as it is.
 */
export function respellReplacement(matched: string, oldText: string, newText: string): Respelled {
  const fileLines = matched.split("\n");
  const oldLines = oldText.split("\n");
  if (fileLines.length !== oldLines.length) return { text: newText };
  const cuts: LineCuts[] = [];
  const all: Spellings = new Map();
  const perLine: Spellings[] = [];
  for (let i = 0; i < oldLines.length; i++) {
    const line = alignLine(oldLines[i] as string, fileLines[i] as string);
    if (!line) return { text: newText };
    cuts.push(line);
    const map: Spellings = new Map();
    record(map, oldLines[i] as string, fileLines[i] as string, line);
    record(all, oldLines[i] as string, fileLines[i] as string, line);
    perLine.push(differing(map));
  }
  const r: Respeller = { line: new Map(), all: differing(all), ambiguous: new Map() };
  const newLines = newText.split("\n");
  const out: string[] = [];
  let oldNext = 0;
  let newNext = 0;
  const gap = (oldEnd: number, newEnd: number) => {
    // Changed lines pair up in order with the removed lines of the same gap; the rest are new.
    for (; newNext < newEnd; newNext++, oldNext++) {
      const newLine = newLines[newNext] as string;
      if (oldNext < oldEnd) {
        r.line = perLine[oldNext] as Spellings;
        out.push(
          respellLine(
            r,
            oldLines[oldNext] as string,
            fileLines[oldNext] as string,
            cuts[oldNext] as LineCuts,
            newLine,
          ),
        );
      } else {
        r.line = new Map();
        out.push(respellRange(r, newLine, 0, newLine.length));
      }
    }
    oldNext = oldEnd;
  };
  for (const [oldIndex, newIndex] of commonLines(oldLines, newLines)) {
    gap(oldIndex, newIndex);
    out.push(fileLines[oldIndex] as string);
    oldNext = oldIndex + 1;
    newNext = newIndex + 1;
  }
  gap(oldLines.length, newLines.length);
  if (r.ambiguous.size > 0) {
    return { ambiguous: [...r.ambiguous].map(([char, spellings]) => ({ char, spellings: [...spellings] })) };
  }
  return { text: out.join("\n") };
}
