import type { FuzzyIndex } from "./fuzzy.js";
import { comparableLine } from "./fuzzy.js";
import { stripLineNumberPrefixes } from "./normalize.js";

/** The part of the file that looks most like an oldText that was not found. */
export interface ClosestRegion {
  /** 1-based line number of the region's first line. */
  startLine: number;
  /** The region's lines as they are in the file. */
  lines: string[];
  /** The first line where the file and oldText differ (after fuzzy normalisation). */
  firstDifference?: { line: number; file: string; oldText: string };
}

/** Above this many lines the whole-file similarity scan is skipped (an identical line still anchors). */
const FULL_SCAN_MAX_LINES = 200_000;
/** Most windows scored for one oldText (each costs one similarity per oldText line). */
const MAX_CANDIDATES = 2000;
/** Lines shorter than this (after trimming) are too common to anchor a region ("}", ""). */
const MIN_ANCHOR_LENGTH = 4;

function bigramCounts(text: string): Map<number, number> {
  const grams = new Map<number, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/**
 * Dice coefficient over character bigrams against a fixed `anchor`: 1 for equal strings, 0 for
 * nothing in common. The anchor's bigrams are counted once, so scanning many lines stays cheap.
 */
export function similarityTo(anchor: string): (text: string) => number {
  const counts = bigramCounts(anchor);
  return (text) => {
    if (text === anchor) return 1;
    if (text.length < 2 || anchor.length < 2) return 0;
    const used = new Map<number, number>();
    let shared = 0;
    for (let i = 0; i < text.length - 1; i++) {
      const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
      const available = counts.get(gram);
      if (available === undefined) continue;
      const taken = used.get(gram) ?? 0;
      if (taken < available) {
        shared += 1;
        used.set(gram, taken + 1);
      }
    }
    return (2 * shared) / (anchor.length - 1 + text.length - 1);
  };
}

/** Dice coefficient over character bigrams of two strings. */
export function similarity(a: string, b: string): number {
  return similarityTo(a)(b);
}

function scoreWindow(index: FuzzyIndex, old: readonly string[], start: number): number {
  let score = 0;
  for (let j = 0; j < old.length; j++) {
    const line = start + j;
    if (line < 0 || line >= index.lines.length) continue;
    score += similarity(index.comparable(line).trim(), (old[j] as string).trim());
  }
  return score;
}

/**
 * Window starts anchored on lines found in both the file and oldText (`wanted`: trimmed line ->
 * its indexes in oldText). Rarest lines first and at most {@link MAX_CANDIDATES} windows, so a
 * line repeated all over the file ("return null;") cannot make the scoring quadratic.
 */
function anchoredCandidates(index: FuzzyIndex, wanted: ReadonlyMap<string, number[]>): Set<number> {
  const found = new Map<string, number[]>();
  for (let i = 0; i < index.lines.length; i++) {
    const key = index.comparable(i).trim();
    if (!wanted.has(key)) continue;
    const lines = found.get(key);
    if (lines) lines.push(i);
    else found.set(key, [i]);
  }
  const candidates = new Set<number>();
  const rarestFirst = [...found].sort((a, b) => a[1].length - b[1].length);
  for (const [key, lines] of rarestFirst) {
    for (const line of lines) {
      for (const j of wanted.get(key) as number[]) {
        candidates.add(line - j);
        if (candidates.size >= MAX_CANDIDATES) return candidates;
      }
    }
  }
  return candidates;
}

/**
 * Finds the region of the file most similar to `oldText`: windows anchored on a line that occurs
 * in both (ignoring indentation), or, in files up to {@link FULL_SCAN_MAX_LINES} lines, on the
 * line most similar to oldText's first substantial line. Undefined when nothing is similar.
 */
export function findClosestRegion(index: FuzzyIndex, oldText: string): ClosestRegion | undefined {
  const given = oldText.split("\n");
  const oldLines = (stripLineNumberPrefixes(given) ?? given).map(comparableLine);
  const wanted = new Map<string, number[]>();
  oldLines.forEach((line, j) => {
    const key = line.trim();
    if (key.length >= MIN_ANCHOR_LENGTH) wanted.set(key, [...(wanted.get(key) ?? []), j]);
  });
  const candidates = anchoredCandidates(index, wanted);
  if (candidates.size === 0 && index.lines.length <= FULL_SCAN_MAX_LINES) {
    const anchor = oldLines.findIndex((line) => line.trim().length >= MIN_ANCHOR_LENGTH);
    if (anchor !== -1) {
      const anchorText = (oldLines[anchor] as string).trim();
      const similarityOf = similarityTo(anchorText);
      let best = -1;
      let bestScore = 0.5;
      for (let i = 0; i < index.lines.length; i++) {
        const line = index.comparable(i).trim();
        // Dice can not exceed 2*min/(sum) of the lengths: skip lines too short or long to win.
        const bound = (2 * Math.min(line.length, anchorText.length)) / (line.length + anchorText.length);
        if (bound <= bestScore) continue;
        const score = similarityOf(line);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      if (best !== -1) candidates.add(best - anchor);
    }
  }
  let bestStart: number | undefined;
  let bestScore = -1;
  for (const start of candidates) {
    const score = scoreWindow(index, oldLines, start);
    if (score > bestScore) {
      bestScore = score;
      bestStart = start;
    }
  }
  if (bestStart === undefined) return undefined;
  const start = Math.max(0, bestStart);
  const end = Math.min(index.lines.length, bestStart + oldLines.length);
  const region: ClosestRegion = { startLine: start + 1, lines: index.lines.slice(start, end) };
  for (let line = start; line < end; line++) {
    const old = oldLines[line - bestStart] as string;
    if (index.comparable(line) !== old) {
      region.firstDifference = {
        line: line + 1,
        file: index.lines[line] as string,
        oldText: (stripLineNumberPrefixes(given) ?? given)[line - bestStart] as string,
      };
      break;
    }
  }
  return region;
}
