/**
 * Elision placeholders in newText: `// ... existing code ...`, `# rest unchanged`, `/* ... *\/`,
 * `[...]`, `...` alone on a line. Models write them to mean "the lines here stay as they are";
 * written into the file they delete those lines. A placeholder only matters where newText drops
 * lines oldText had: real code that holds `...` (spread, Python's Ellipsis, varargs) and deletes
 * nothing is never touched.
 */
import { lineGaps } from "./line-alignment.js";

/** An elision placeholder on its own line of newText, and the oldText lines it stands for. */
export interface Elision {
  /** The placeholder line as newText has it (trimmed). */
  placeholder: string;
  /** 1-based line of the placeholder in newText. */
  newTextLine: number;
  /** The oldText lines newText drops where the placeholder stands. */
  dropped: string[];
}

/** What {@link expandElisions} made of newText. */
export type ElisionResult = { newText: string; kept: Elision[] } | { refused: Elision };

/** Most words an elision comment has; a longer comment is prose. */
const MAX_ELISION_WORDS = 10;
const ELLIPSIS = /\.\.\.|…/;
/** Comment openers and closers of the common languages (C family, shell/Python/YAML, SQL/Lua, Lisp/INI, TeX, HTML, JSX). */
const COMMENT = /^(?:\/\/+|#+|--+|;+|%+|\/\*+|<!--|\{\s*\/\*+|\*)\s*([\s\S]*?)\s*(?:\*+\/\s*\}?|-->)?$/;
/** Placeholders that are not comments: only ever refused, since `...` alone is also real Python. */
const BARE = /^(?:\.\.\.|…|\[\s*(?:\.\.\.|…)\s*\]|\(\s*(?:\.\.\.|…)\s*\)|\{\s*(?:\.\.\.|…)\s*\})$/;
/** Words that say "the lines here are left out" on their own. */
const ELIDED =
  /\b(?:unchanged|omitted|elided|existing (?:code|content|lines|logic|implementation|methods|imports)|rest of (?:the )?(?:file|code|function|class|method|module|body|implementation|component|document|section|lines|config)|(?:the )?rest(?: is| stays| remains)? (?:the same|as before|as is)|remaining (?:code|lines|content|methods|functions|implementation)|same as before|as before|no changes)\b/i;
/** Words that, next to an ellipsis, still read as an elision. */
const ELIDED_WITH_ELLIPSIS =
  /^(?:(?:the )?(?:rest|more|other|remaining|existing|previous|same|original|unchanged|etc\.?|code|lines|content|imports|methods|functions|fields|cases|tests|here|\(|\)|[-:,])\s*)*$/i;

/** How a line of newText reads as a placeholder: `keep` (a clear elision comment), `refuse` (bare `...`), or not one. */
export function elisionKind(line: string): "keep" | "refuse" | undefined {
  const trimmed = line.trim();
  if (trimmed === "") return undefined;
  if (BARE.test(trimmed)) return "refuse";
  const comment = COMMENT.exec(trimmed);
  if (!comment) return undefined;
  const body = (comment[1] ?? "").trim();
  const words = body
    .replace(/\.\.\.|…/g, " ")
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length > MAX_ELISION_WORDS) return undefined;
  if (ELLIPSIS.test(body)) {
    const rest = body.replace(/\.\.\.|…/g, " ").trim();
    return rest === "" || ELIDED.test(rest) || ELIDED_WITH_ELLIPSIS.test(rest) ? "keep" : undefined;
  }
  return ELIDED.test(body) ? "keep" : undefined;
}

/**
 * Finds placeholders in newText where oldText lines would be dropped. When a clear elision comment
 * is all newText has in place of a run of oldText lines, those lines are kept in its place;
 * otherwise (other new lines beside it, a bare `...`, nothing left to change) the first such
 * placeholder is returned as refused.
 */
export function expandElisions(oldText: string, newText: string): ElisionResult {
  if (!ELLIPSIS.test(newText) && !ELIDED.test(newText)) return { newText, kept: [] };
  const oldLines = oldText.split("\n");
  const newLines = newText.split("\n");
  const inOld = new Set(oldLines.map((line) => line.trim()));
  const kept: Elision[] = [];
  const replaced = new Map<number, string[]>();
  for (const gap of lineGaps(oldLines, newLines)) {
    const dropped = oldLines.slice(gap.oldStart, gap.oldEnd);
    if (!dropped.some((line) => line.trim() !== "")) continue;
    for (let at = gap.newStart; at < gap.newEnd; at++) {
      const line = newLines[at] as string;
      const kind = inOld.has(line.trim()) ? undefined : elisionKind(line);
      if (!kind) continue;
      const elision = { placeholder: line.trim(), newTextLine: at + 1, dropped };
      if (kind === "refuse" || gap.newEnd - gap.newStart !== 1) return { refused: elision };
      kept.push(elision);
      replaced.set(at, dropped);
    }
  }
  if (kept.length === 0) return { newText, kept };
  const expanded = newLines.flatMap((line, at) => replaced.get(at) ?? [line]).join("\n");
  // A placeholder that stands for every changed line leaves nothing to do: not what was meant.
  if (expanded === oldText) return { refused: kept[0] as Elision };
  return { newText: expanded, kept };
}
