import { firstProblems, positionAt, type SyntaxProblem } from "./syntax-problem.js";

/**
 * Syntax checks of data formats that tree-sitter's shipped grammars do not cover, each on a
 * small, well-kept parser that reports where it failed: JSON (with comments and trailing commas,
 * as tsconfig.json and VS Code settings use them) through `jsonc-parser`, YAML (every document of
 * a stream) through `yaml`, TOML through `smol-toml`. Each library is imported on the first file
 * of its format.
 */

/** JSONC as tsconfig.json and VS Code settings use it. */
const JSON_OPTIONS = { allowTrailingComma: true, disallowComments: false };

/** Problems of a JSON or JSONC text (empty: it parses). */
export async function jsonProblems(text: string): Promise<SyntaxProblem[]> {
  // An empty file is not a JSON document, but it is what a new config file starts as.
  if (text.trim() === "") return [];
  const jsonc = await import("jsonc-parser");
  const errors: { error: import("jsonc-parser").ParseErrorCode; offset: number }[] = [];
  // `visit` reports the errors `parse` would (parse is built on it) without building the value:
  // less time and no garbage for a 2,000-line file.
  jsonc.visit(text, { onError: (error, offset) => errors.push({ error, offset }) }, JSON_OPTIONS);
  return firstProblems(
    errors.map((error) => ({
      ...positionAt(text, error.offset),
      message: jsonMessage(jsonc.printParseErrorCode(error.error)),
    })),
  );
}

/** `CommaExpected` -> `comma expected`. */
function jsonMessage(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Problems of a YAML stream (empty: every document parses). */
export async function yamlProblems(text: string): Promise<SyntaxProblem[]> {
  const { parseAllDocuments } = await import("yaml");
  const documents = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(documents) ? documents : [documents];
  const problems: SyntaxProblem[] = [];
  for (const document of list) {
    for (const error of document.errors) {
      const linePos = error.linePos?.[0];
      const at = linePos ? { line: linePos.line, column: linePos.col } : positionAt(text, error.pos[0]);
      problems.push({ ...at, message: firstLine(error.message) });
    }
  }
  return firstProblems(problems);
}

/** Problems of a TOML document (empty: it parses). */
export async function tomlProblems(text: string): Promise<SyntaxProblem[]> {
  const { parse, TomlError } = await import("smol-toml");
  try {
    parse(text);
    return [];
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const message = firstLine(error.message).replace(/^Invalid TOML document: /, "");
    return [{ line: error.line, column: error.column, message }];
  }
}

/** The first line of a library's message, without its own " at line L, column C:" (we show those). */
function firstLine(message: string): string {
  return (message.split("\n", 1)[0] ?? "").replace(/ at line \d+, column \d+:?$/, "").trim();
}
