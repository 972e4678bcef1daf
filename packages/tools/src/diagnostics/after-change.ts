import {
  type ChangeFeedback,
  DIAGNOSTICS_DEFAULTS,
  type DiagnosticsEvent,
  type ExtensionContext,
  type FeedbackCode,
  type ServerFeedback,
  type SyntaxFeedback,
} from "@tackle/extensions";
import { pathSyntax } from "@tackle/session";
import { syntaxLanguageOf } from "../syntax/check-syntax.js";
import { syntaxCacheKey } from "../syntax/parse-after-read.js";
import { decodeText } from "../text/encoding.js";
import { hasTool } from "../tool-names.js";
import { feedbackText } from "./feedback-text.js";
import { serverFeedback } from "./server-feedback.js";
import { syntaxFeedback } from "./syntax-feedback.js";

/** A file a tool has just written. */
export interface CommittedChange {
  toolCallId: string;
  /** The tool that wrote it (`edit`, `write`, `apply_patch`). */
  toolName: string;
  /** Real path, absolute in the environment's syntax. */
  path: string;
  /** The path as the model named it. */
  display: string;
  /** The bytes before (null: the tool created the file) and as written. */
  before: Uint8Array | null;
  after: Uint8Array;
  signal: AbortSignal | undefined;
}

/** What a file tool adds to its result after a change. */
export interface ChangeReport {
  /** For the model, to append to the result's text; empty when there is nothing to act on. */
  text: string;
  /** For `details.feedback`. */
  feedback: ChangeFeedback;
}

/**
 * The one step every file tool runs after a successful write: the syntax check (before vs after),
 * then the session's diagnostics provider for the file, if any, within its time budget. It
 * records the outcome in the call's audit, sends a `diagnostics` event to the session's UI, and
 * returns the text and details to add to the result. Never throws: a check that fails is
 * reported as unavailable or skipped, and the change stays written either way.
 */
export async function reportAfterChange(
  ctx: ExtensionContext,
  change: CommittedChange,
): Promise<ChangeReport> {
  const settings = ctx.diagnostics ?? {};
  const after = decodeText(change.after).text;
  const syntax: SyntaxFeedback =
    settings.syntax === false
      ? { status: "off" }
      : await syntaxFeedback(
          change.path,
          () => (change.before === null ? null : decodeText(change.before).text),
          after,
          syntaxCacheKey(ctx, change.path),
        ).catch((error: unknown) => ({ status: "unavailable" as const, reason: messageOf(error) }));
  const provider = settings.providers?.find((candidate) => candidate.handles(change.path));
  const budgetMs = settings.budgetMs ?? DIAGNOSTICS_DEFAULTS.budgetMs;
  const server: ServerFeedback | undefined = provider
    ? await serverFeedback(provider, {
        path: change.path,
        text: after,
        budgetMs,
        maxItems: settings.maxItems ?? DIAGNOSTICS_DEFAULTS.maxItems,
        signal: change.signal,
      })
    : undefined;
  const feedback: ChangeFeedback = { codes: codesOf(syntax, server), syntax, ...(server ? { server } : {}) };
  record(ctx, change, feedback);
  notify(ctx, change, feedback);
  const syntaxPath = pathSyntax(ctx.operations.platform);
  const text = feedbackText(syntax, server, after, {
    display: change.display,
    displayOf: (path) =>
      path === change.path ? change.display : relativeOrAbsolute(syntaxPath.relative(ctx.cwd, path), path),
    fixWith: hasTool(ctx, "edit") ? "edit" : "write",
    label: syntaxLanguageOf(change.path)?.label,
    created: change.before === null,
    budgetMs,
  });
  return { text, feedback };
}

function codesOf(syntax: SyntaxFeedback, server: ServerFeedback | undefined): FeedbackCode[] {
  const codes: FeedbackCode[] = [];
  if (syntax.status === "broken") codes.push("syntax_broken");
  if (server?.status === "skipped") codes.push("diagnostics_skipped");
  else if (server && server.errors > 0) codes.push("diagnostics_errors");
  return codes;
}

/** Recorded when something was checked: a file of no known language without a provider leaves no event. */
function record(ctx: ExtensionContext, change: CommittedChange, feedback: ChangeFeedback): void {
  const checked =
    feedback.server !== undefined ||
    (feedback.syntax.status !== "unsupported" && feedback.syntax.status !== "off");
  if (!checked) return;
  const audit = ctx.call.audit;
  if (!audit.enabled) return;
  audit.record({
    kind: "diagnostics",
    source: "diagnostics",
    path: change.path,
    codes: feedback.codes,
    syntax: feedback.syntax,
    ...(feedback.server ? { server: feedback.server } : {}),
  });
}

function notify(ctx: ExtensionContext, change: CommittedChange, feedback: ChangeFeedback): void {
  const onEvent = ctx.diagnostics?.onEvent;
  if (!onEvent) return;
  const event: DiagnosticsEvent = {
    type: "diagnostics",
    toolCallId: change.toolCallId,
    toolName: change.toolName,
    path: change.path,
    ...feedback,
  };
  try {
    onEvent(event);
  } catch (error) {
    // A UI's listener must not turn a written change into a failed call.
    ctx.logger.warn("diagnostics listener threw", { error: messageOf(error) });
  }
}

function relativeOrAbsolute(relative: string, absolute: string): string {
  return relative.startsWith("..") || relative === "" ? absolute : relative.split("\\").join("/");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
