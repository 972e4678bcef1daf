import type { Diagnostic, DiagnosticsProvider, ServerFeedback } from "@tackle/extensions";

/** Why a provider's answer was not waited for. */
class BudgetExceeded extends Error {}

/**
 * Asks `provider` about the changed file within `budgetMs`. Never waits past the budget, even
 * for a provider that ignores its signal: the result then says the check was skipped. Never
 * throws; a failing provider is reported as skipped with its message.
 */
export async function serverFeedback(
  provider: DiagnosticsProvider,
  request: {
    path: string;
    text: string;
    budgetMs: number;
    maxItems: number;
    signal: AbortSignal | undefined;
  },
): Promise<ServerFeedback> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => controller.abort(new BudgetExceeded());
  request.signal?.addEventListener("abort", stop, { once: true });
  const outOfTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stop();
      reject(new BudgetExceeded());
    }, request.budgetMs);
    controller.signal.addEventListener("abort", () => reject(new BudgetExceeded()), { once: true });
  });
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const found = await Promise.race([
      provider.diagnose({ path: request.path, text: request.text, signal: controller.signal }),
      outOfTime,
    ]);
    return summarize(provider.name, found, request.path, request.maxItems, elapsed());
  } catch (error) {
    const budget = error instanceof BudgetExceeded || controller.signal.aborted;
    return {
      status: "skipped",
      provider: provider.name,
      elapsedMs: elapsed(),
      errors: 0,
      warnings: 0,
      items: [],
      reason: budget ? "budget" : "failed",
      ...(budget ? {} : { detail: error instanceof Error ? error.message : String(error) }),
    };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", stop);
    // The race's loser must not surface as an unhandled rejection.
    outOfTime.catch(() => {});
  }
}

const SEVERITY_ORDER = { error: 0, warning: 1, information: 2, hint: 3 } as const;

/** Counts, then the changed file's diagnostics first, errors before warnings, in line order, capped. */
function summarize(
  provider: string,
  found: Diagnostic[],
  path: string,
  maxItems: number,
  elapsedMs: number,
): ServerFeedback {
  const relevant = found.filter((d) => d.severity === "error" || d.severity === "warning");
  const items = [...relevant]
    .sort(
      (a, b) =>
        Number(a.path !== path) - Number(b.path !== path) ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        a.path.localeCompare(b.path) ||
        a.line - b.line ||
        a.column - b.column,
    )
    .slice(0, maxItems);
  return {
    status: "checked",
    provider,
    elapsedMs,
    errors: relevant.filter((d) => d.severity === "error").length,
    warnings: relevant.filter((d) => d.severity === "warning").length,
    items,
  };
}
