import type { LanguageServerSpec } from "./language-server.js";

/**
 * TypeScript and JavaScript through `typescript-language-server` (npm; it runs the project's own
 * `typescript`, or the one `initializationOptions.tsserver.path` names). It reports syntactic
 * diagnostics first and semantic ones a moment later, hence the settle time, and publishes
 * nothing when a file without diagnostics still has none, hence `stillCleanAfterMs`.
 */
export const TYPESCRIPT_LANGUAGE_SERVER: LanguageServerSpec = {
  name: "typescript",
  command: "typescript-language-server --stdio",
  extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
  languageId: (path) => {
    const extension = path.slice(path.lastIndexOf(".")).toLowerCase();
    if (extension === ".tsx") return "typescriptreact";
    if (extension === ".jsx") return "javascriptreact";
    return extension.endsWith("js") ? "javascript" : "typescript";
  },
  settleMs: 300,
  stillCleanAfterMs: 1000,
};

/** Python through `pyright-langserver` (npm `pyright`), which publishes once per change. */
export const PYRIGHT_LANGUAGE_SERVER: LanguageServerSpec = {
  name: "pyright",
  command: "pyright-langserver --stdio",
  extensions: [".py", ".pyi"],
  languageId: () => "python",
};
