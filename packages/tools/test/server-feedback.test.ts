import type { Diagnostic, DiagnosticsProvider } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { serverFeedback } from "../src/diagnostics/server-feedback.js";

/** A provider that answers with `found`, or never (ignoring its signal) when `found` is undefined. */
function provider(found?: Diagnostic[]): DiagnosticsProvider & { asked: number } {
  return {
    name: "fixed",
    asked: 0,
    handles: () => true,
    diagnose() {
      this.asked++;
      return found ? Promise.resolve(found) : new Promise<Diagnostic[]>(() => {});
    },
    dispose: async () => {},
  };
}

const at = (path: string, line: number, severity: Diagnostic["severity"]): Diagnostic => ({
  path,
  line,
  column: 1,
  severity,
  message: `${severity} at ${path}:${line}`,
});

describe("server feedback", () => {
  it("lists the changed file first, errors before warnings, capped, with the counts of everything", async () => {
    const found = [
      at("/p/other.ts", 1, "error"),
      at("/p/a.ts", 9, "warning"),
      at("/p/a.ts", 30, "error"),
      at("/p/a.ts", 2, "error"),
      at("/p/a.ts", 4, "hint"),
      at("/p/other.ts", 5, "warning"),
    ];
    const feedback = await serverFeedback(provider(found), {
      path: "/p/a.ts",
      text: "",
      budgetMs: 10_000,
      maxItems: 4,
      signal: undefined,
    });
    expect(feedback).toMatchObject({ status: "checked", errors: 3, warnings: 2 });
    expect(feedback.items.map((d) => `${d.path}:${d.line}`)).toEqual([
      "/p/a.ts:2",
      "/p/a.ts:30",
      "/p/a.ts:9",
      "/p/other.ts:1",
    ]);
  });

  it("a provider that ignores its signal does not hold the call past the budget", async () => {
    const feedback = await serverFeedback(provider(), {
      path: "/p/a.ts",
      text: "",
      budgetMs: 50,
      maxItems: 10,
      signal: undefined,
    });
    expect(feedback).toMatchObject({ status: "skipped", reason: "budget", items: [], errors: 0 });
  });

  it("a provider that fails is reported as skipped with its message", async () => {
    const failing: DiagnosticsProvider = {
      name: "broken",
      handles: () => true,
      diagnose: () => Promise.reject(new Error("server crashed")),
      dispose: async () => {},
    };
    const feedback = await serverFeedback(failing, {
      path: "/p/a.ts",
      text: "",
      budgetMs: 10_000,
      maxItems: 10,
      signal: undefined,
    });
    expect(feedback).toMatchObject({ status: "skipped", reason: "failed", detail: "server crashed" });
  });

  it("the call's abort ends the wait as well", async () => {
    const controller = new AbortController();
    const pending = serverFeedback(provider(), {
      path: "/p/a.ts",
      text: "",
      budgetMs: 60_000,
      maxItems: 10,
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toMatchObject({ status: "skipped", reason: "budget" });
  });
});
