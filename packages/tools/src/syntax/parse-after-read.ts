import { type ExtensionContext, type SessionKey, sessionKey, type ToolSession } from "@tackle/extensions";
import { decodeText } from "../text/encoding.js";
import { hasTool } from "../tool-names.js";
import { dropBackgroundParses, parseInBackground } from "./background-parse.js";
import { MAX_SYNTAX_CHECK_CHARS, syntaxLanguageOf } from "./check-syntax.js";

/**
 * The read tool's part in the syntax check: a file the model reads is usually the file it edits
 * next, so a read of a file in a tree-sitter language hands its bytes to a background parse (see
 * `background-parse.ts`). The read's result does not wait for it; the edit's check then re-parses
 * incrementally from the read's tree instead of parsing the whole file.
 */

/**
 * The tools whose changes the syntax check follows (the Anthropic text editor's name included):
 * a session with none of them never needs the parse, so its reads start none.
 */
const CHANGING_TOOLS = ["edit", "write", "apply_patch", "str_replace_based_edit_tool"];

/** The session's owner of its background parses: aborted when its tool context is disposed. */
const BACKGROUND_PARSES: SessionKey<AbortController> =
  sessionKey<AbortController>("syntax.background-parses");

/** The parse cache's key of a file: its environment and real path (one file, whichever session). */
export function syntaxCacheKey(ctx: Pick<ToolSession, "operations">, path: string): string {
  return `${ctx.operations.id}\0${path}`;
}

/**
 * Whether a read of the file at real path `path`, of `size` bytes, keeps its bytes for a
 * background parse: the session checks syntax and can change files, the file's language has a
 * grammar, and it is no larger than the check parses.
 */
export function parsesAfterRead(ctx: ExtensionContext, path: string, size: number): boolean {
  return (
    ctx.diagnostics?.syntax !== false &&
    CHANGING_TOOLS.some((name) => hasTool(ctx, name)) &&
    size <= MAX_SYNTAX_CHECK_CHARS &&
    syntaxLanguageOf(path)?.grammar !== undefined
  );
}

/** Queues the background parse of a file read whole as `chunks` (see {@link parsesAfterRead}). Never throws. */
export function parseAfterRead(ctx: ExtensionContext, path: string, chunks: Uint8Array[]): void {
  const language = syntaxLanguageOf(path);
  if (!language) return;
  const owner = ctx.state.getOrCreate(BACKGROUND_PARSES, () => {
    const controller = new AbortController();
    controller.signal.addEventListener("abort", () => dropBackgroundParses(controller.signal), {
      once: true,
    });
    return controller;
  }).signal;
  parseInBackground({
    key: syntaxCacheKey(ctx, path),
    language,
    owner,
    source: () => {
      const text = decodeText(Buffer.concat(chunks)).text;
      return text.length <= MAX_SYNTAX_CHECK_CHARS ? text : undefined;
    },
  });
}

/** Ends the background parses a session started (its tool context is being disposed). */
export function endBackgroundParses(ctx: Pick<ToolSession, "state">): void {
  ctx.state.get(BACKGROUND_PARSES)?.abort();
}
