import type { GrepEvent } from "@tackle/operations";
import { comparePaths } from "./compare-paths.js";

/** One line of a grep page: a match of the page, or a context line around one. */
export interface PageLine {
  kind: "match" | "context";
  path: string;
  lineNumber: number;
  line: string;
  /** The engine cut the line (`GrepEvent.truncated`): `line` is only its start. */
  truncated: boolean;
}

/** The lines of one page of grep results, in path then line order. */
export interface GrepPage {
  /** Lines to show, grouped by file; `gapBefore` marks where lines stop being contiguous. */
  lines: (PageLine & { gapBefore: boolean })[];
  /** Matches on this page. */
  matches: number;
  /** Files with a match on this page. */
  files: number;
  /** More matches exist after this page (the search found at least one more). */
  hasMore: boolean;
}

/**
 * Orders the collected events (path by `comparePaths`, then line; a line seen both as context and
 * as a match is a match) and cuts out matches `offset` .. `offset + limit - 1`, each with the
 * context lines within `context` of it. A match that falls in that window but outside the page
 * is shown as context: it belongs to the next or previous page.
 */
export function pageGrepEvents(
  events: readonly GrepEvent[],
  offset: number,
  limit: number,
  context: number,
): GrepPage {
  const byPath = new Map<string, Map<number, GrepEvent>>();
  for (const event of events) {
    let lines = byPath.get(event.path);
    if (!lines) {
      lines = new Map();
      byPath.set(event.path, lines);
    }
    const seen = lines.get(event.lineNumber);
    if (!seen || (seen.type === "context" && event.type === "match")) lines.set(event.lineNumber, event);
  }
  const paths = [...byPath.keys()].sort(comparePaths);
  const out: GrepPage["lines"] = [];
  let index = 0;
  let shownMatches = 0;
  let files = 0;
  let hasMore = false;
  for (const path of paths) {
    const lines = [...byPath.get(path)!.values()].sort((a, b) => a.lineNumber - b.lineNumber);
    const wanted = new Set<number>();
    const pageMatches = new Set<number>();
    for (const event of lines) {
      if (event.type !== "match") continue;
      if (index >= offset && index < offset + limit) {
        pageMatches.add(event.lineNumber);
        for (let n = event.lineNumber - context; n <= event.lineNumber + context; n++) wanted.add(n);
      } else if (index >= offset + limit) hasMore = true;
      index++;
    }
    if (pageMatches.size === 0) continue;
    files++;
    shownMatches += pageMatches.size;
    let previous = -1;
    for (const event of lines) {
      if (!wanted.has(event.lineNumber)) continue;
      out.push({
        kind: pageMatches.has(event.lineNumber) ? "match" : "context",
        path,
        lineNumber: event.lineNumber,
        line: event.line,
        truncated: event.truncated === true,
        gapBefore: out.length > 0 && (previous < 0 || event.lineNumber !== previous + 1),
      });
      previous = event.lineNumber;
    }
  }
  return { lines: out, matches: shownMatches, files, hasMore };
}
