import type { Logger, ToolUI } from "./context.js";

/**
 * The UI of a run with nobody watching: every confirmation is denied (a destructive step never
 * goes ahead unasked), notifications go to `logger` when one is given.
 */
export function createHeadlessUI(logger?: Logger): ToolUI {
  return {
    async confirm() {
      return false;
    },
    notify(message, level = "info") {
      logger?.[level === "warning" ? "warn" : level](message);
    },
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
