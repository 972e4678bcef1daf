import type { Logger, ToolUI } from "./context.js";

/**
 * The UI of a run with nobody watching: every confirmation is denied (a destructive step never
 * goes ahead unasked), notifications go to `logger` when one is given.
 */
export function createHeadlessUI(logger?: Logger): ToolUI {
  const ui: ToolUI = {
    async confirm() {
      return false;
    },
    notify(message, level = "info") {
      logger?.[level === "warning" ? "warn" : level](message);
    },
  };
  headless.add(ui);
  return ui;
}

const headless = new WeakSet<ToolUI>();

/** True for a UI made by {@link createHeadlessUI}: its "no" means nobody was asked (the audit says so). */
export function isHeadlessUI(ui: ToolUI): boolean {
  return headless.has(ui);
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
