/**
 * Feedback after a tool changes a file: the syntax check (always on) and, when a session asks
 * for it, what a language server or checker of the environment reports. The tools fill in a
 * {@link ChangeFeedback}; hosts choose the providers and receive a {@link DiagnosticsEvent} for
 * their UI.
 */

/** How serious a diagnostic is (the Language Server Protocol's four levels). */
export type DiagnosticSeverity = "error" | "warning" | "information" | "hint";

/** One finding of a diagnostics provider. Lines and columns are 1-based. */
export interface Diagnostic {
  /** Absolute path in the environment. */
  path: string;
  line: number;
  column: number;
  severity: DiagnosticSeverity;
  message: string;
  /** The checker's own code (`TS2322`, `reportUndefinedVariable`), when it has one. */
  code?: string;
  /** Which checker said it (`typescript`, `pyright`). */
  source?: string;
}

/** What a provider is asked after a change. */
export interface DiagnosticsRequest {
  /** Absolute (real) path of the changed file, in the environment's syntax. */
  path: string;
  /** The file's content as written. */
  text: string;
  /** Fires when the call's budget runs out or the call is aborted: stop waiting at once. */
  signal: AbortSignal;
}

/**
 * A source of diagnostics for some kinds of files, typically a language server kept running in
 * the session's environment. Made per session and ended with the tool context.
 */
export interface DiagnosticsProvider {
  /** Short name for results and logs (`typescript`, `pyright`). */
  readonly name: string;
  /** Whether it checks this file (usually by extension). */
  handles(path: string): boolean;
  /**
   * Diagnostics for the changed file and, where the checker reports them, files that depend on
   * it. Rejects when `request.signal` fires; the caller reports the check as skipped.
   */
  diagnose(request: DiagnosticsRequest): Promise<Diagnostic[]>;
  /** Ends its processes. Called when the tool context is disposed. */
  dispose(): Promise<void>;
}

/** The syntax check's verdict on one change (see {@link ChangeFeedback}). */
export interface SyntaxFeedback {
  /**
   * `parses`; `broken`: parsed before the change and not after (a warning); `still_broken`: did
   * not parse before either (no warning); `unsupported`: no parser for this kind of file;
   * `unavailable`: its parser is not installed; `too_large`: past the check's size limit;
   * `off`: the session turned the check off.
   */
  status: "parses" | "broken" | "still_broken" | "unsupported" | "unavailable" | "too_large" | "off";
  /** Language id (`typescript`, `yaml`, ...). */
  language?: string;
  /** For `broken` and `still_broken`: the first problems after the change, in file order. */
  problems?: { line: number; column: number; message: string }[];
  /** Why `unavailable`. */
  reason?: string;
  /** Time the check took, in ms (present when a parser ran). */
  elapsedMs?: number;
}

/** What the session's diagnostics providers said about one change. */
export interface ServerFeedback {
  /** `checked`; `skipped`: the budget ran out (or the provider failed) before an answer. */
  status: "checked" | "skipped";
  provider: string;
  elapsedMs: number;
  /** Counts over everything the provider reported. */
  errors: number;
  warnings: number;
  /** The changed file's first, errors before warnings, at most the session's `maxItems`. */
  items: Diagnostic[];
  /** For `skipped`: `budget` (time ran out) or `failed` (the provider threw), and its words. */
  reason?: "budget" | "failed";
  detail?: string;
}

/** Warnings a change's result can carry. */
export type FeedbackCode = "syntax_broken" | "diagnostics_errors" | "diagnostics_skipped";

/** What a file tool's result says about the change it made (`details.feedback`). */
export interface ChangeFeedback {
  /** Machine-readable warnings, in the order the result text gives them (empty: nothing to act on). */
  codes: FeedbackCode[];
  syntax: SyntaxFeedback;
  /** Present when a session provider handles the file. */
  server?: ServerFeedback;
}

/** The event a UI receives for each change a file tool made. */
export interface DiagnosticsEvent extends ChangeFeedback {
  type: "diagnostics";
  toolCallId: string;
  toolName: string;
  /** Absolute (real) path of the changed file. */
  path: string;
}

/** A session's choices about feedback after changes (`ExtensionContext.diagnostics`). */
export interface DiagnosticsSettings {
  /** The syntax check after each change. Default true. */
  syntax?: boolean;
  /** Opt-in diagnostics providers (language servers); the first that handles a file is asked. */
  providers?: readonly DiagnosticsProvider[];
  /** Time a call waits for a provider, in ms (default `DIAGNOSTICS_DEFAULTS.budgetMs`). */
  budgetMs?: number;
  /** Diagnostics listed in a result (default `DIAGNOSTICS_DEFAULTS.maxItems`). */
  maxItems?: number;
  /** Receives a `diagnostics` event for every change checked (for UIs). Must not throw. */
  onEvent?: (event: DiagnosticsEvent) => void;
}

/** Defaults of {@link DiagnosticsSettings}. */
export const DIAGNOSTICS_DEFAULTS = {
  /** A warm language server answers a one-file change in well under this. */
  budgetMs: 3000,
  maxItems: 10,
} as const;
