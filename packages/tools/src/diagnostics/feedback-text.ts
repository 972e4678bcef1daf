import type { ServerFeedback, SyntaxFeedback } from "@tackle/extensions";
import { stripControl } from "../shell/sanitize.js";

/** Lines of source shown around the first syntax problem (before it, and after it). */
export const EXCERPT_CONTEXT_LINES = 1;
/** Longest source line shown in an excerpt. */
export const EXCERPT_LINE_CHARS = 160;

/** How the text names files and the next step. */
export interface FeedbackWording {
  /** The changed file as the model named it. */
  display: string;
  /** A path of a diagnostic as the model would name it. */
  displayOf: (path: string) => string;
  /** The tool that fixes a file (`edit`, or `write` when there is no edit tool). */
  fixWith: string;
  /** The language's name for the model. */
  label: string | undefined;
  /** The tool created the file (there was no "before"). */
  created: boolean;
  /** The session's time budget for diagnostics, in ms. */
  budgetMs: number;
}

/**
 * The model's text about a change: empty when there is nothing to act on, otherwise a warning
 * that names where the file broke (with a short excerpt) and what the language server reports,
 * and the next step.
 */
export function feedbackText(
  syntax: SyntaxFeedback,
  server: ServerFeedback | undefined,
  after: string,
  wording: FeedbackWording,
): string {
  const parts: string[] = [];
  if (syntax.status === "broken" && syntax.problems?.length) {
    const as = wording.label ? ` as ${wording.label}` : "";
    parts.push(
      [
        wording.created
          ? `Warning: ${wording.display} does not parse${as}. The file was written as given.`
          : `Warning: ${wording.display} no longer parses${as}. It did before this change; the change was kept.`,
        ...syntax.problems.map((p) => `  line ${p.line}, column ${p.column}: ${clean(p.message)}`),
        excerpt(after, syntax.problems[0]?.line ?? 1),
        `Fix it with ${wording.fixWith} before going on.`,
      ].join("\n"),
    );
  }
  if (server?.status === "skipped") {
    parts.push(
      server.reason === "budget"
        ? `${server.provider} diagnostics skipped: no answer within ${wording.budgetMs} ms.`
        : `${server.provider} diagnostics skipped: the checker failed (${clean(server.detail ?? "no reason given")}).`,
    );
  } else if (server && server.errors + server.warnings > 0) {
    const counts = [plural(server.errors, "error"), plural(server.warnings, "warning")]
      .filter((count) => !count.startsWith("0 "))
      .join(", ");
    const hidden = server.errors + server.warnings - server.items.length;
    parts.push(
      [
        `${server.provider} reports ${counts} after this change:`,
        ...server.items.map(
          (d) =>
            `  ${wording.displayOf(d.path)}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ""}: ${clean(d.message)}`,
        ),
        ...(hidden > 0 ? [`  (${hidden} more not shown)`] : []),
      ].join("\n"),
    );
  }
  return parts.join("\n\n");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One line, control characters removed, cut. */
function clean(text: string): string {
  const line = stripControl(text.split("\n", 1)[0] ?? "");
  return line.length > EXCERPT_LINE_CHARS ? `${line.slice(0, EXCERPT_LINE_CHARS)}...` : line;
}

/** Numbered lines around `line` (1-based), the line itself marked with `>`. */
function excerpt(text: string, line: number): string {
  const lines = text.split("\n");
  const first = Math.max(1, line - EXCERPT_CONTEXT_LINES);
  const last = Math.min(lines.length, line + EXCERPT_CONTEXT_LINES);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const source = clean((lines[n - 1] ?? "").replace(/\r$/, ""));
    out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${source}`);
  }
  return out.join("\n");
}
