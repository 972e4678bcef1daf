import type { SyntaxFeedback } from "@tackle/extensions";
import { checkSyntax, MAX_SYNTAX_CHECK_CHARS, syntaxLanguageOf } from "../syntax/check-syntax.js";

export { MAX_SYNTAX_CHECK_CHARS };

/**
 * The syntax check of one change: the text after is parsed first; only when it has problems is
 * the text before parsed too, so the usual, clean change costs one parse (an incremental one
 * when the file was checked before: see `parse-cache.ts`). A new file (`before`
 * null) counts as having parsed before: a new file that does not parse is worth a warning. A file
 * that did not parse before is never reported as broken by this change.
 */
export async function syntaxFeedback(
  path: string,
  /** The text before the change, decoded only when needed; null: the file is new. */
  before: () => string | null,
  after: string,
  /** Identifies the file in the parse cache (its environment and real path). */
  cacheKey: string,
): Promise<SyntaxFeedback> {
  if (after.length > MAX_SYNTAX_CHECK_CHARS) {
    const language = syntaxLanguageOf(path);
    return language ? { status: "too_large", language: language.id } : { status: "unsupported" };
  }
  const started = performance.now();
  const now = await checkSyntax(path, after, { cacheKey, remember: true });
  const language = now.language !== undefined ? { language: now.language } : {};
  const elapsed = () => ({ elapsedMs: Math.round((performance.now() - started) * 100) / 100 });
  switch (now.status) {
    case "parses":
      return { status: "parses", ...language, ...elapsed() };
    case "unsupported":
      return { status: "unsupported" };
    case "unavailable":
      return {
        status: "unavailable",
        ...language,
        ...(now.reason !== undefined ? { reason: now.reason } : {}),
      };
    case "errors": {
      const text = before();
      const parsedBefore = text === null || (await checkSyntax(path, text, { cacheKey })).status === "parses";
      return {
        status: parsedBefore ? "broken" : "still_broken",
        ...language,
        problems: now.problems,
        ...elapsed(),
      };
    }
  }
}
