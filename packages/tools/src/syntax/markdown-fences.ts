import { type SyntaxChecker, SyntaxUnavailableError } from "./languages.js";
import { firstProblems, type SyntaxProblem } from "./syntax-problem.js";

/**
 * The syntax check of a Markdown file: each fenced code block whose info string names a known
 * language is checked as that language (problems carry the Markdown file's line numbers), and a
 * fence that is never closed is a problem at the line that opened it (CommonMark lets such a
 * block run to the end of the file, which is almost never what an edit meant).
 */
export async function markdownFenceProblems(
  text: string,
  checkerOf: (tag: string) => SyntaxChecker | undefined,
): Promise<SyntaxProblem[]> {
  const lines = text.split("\n");
  const problems: SyntaxProblem[] = [];
  let open: { marker: string; line: number; tag: string; body: string[] } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    if (open === undefined) {
      const start = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)/.exec(line);
      if (start?.[1] !== undefined)
        open = { marker: start[1], line: index + 1, tag: start[2] ?? "", body: [] };
      continue;
    }
    const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
    if (closing !== undefined && closing[0] === open.marker[0] && closing.length >= open.marker.length) {
      const check = open.tag ? checkerOf(open.tag.toLowerCase()) : undefined;
      if (check) {
        const firstBodyLine = open.line + 1;
        for (const problem of await fenceProblems(check, open.body.join("\n"))) {
          problems.push({ ...problem, line: problem.line + firstBodyLine - 1 });
        }
      }
      open = undefined;
      continue;
    }
    open.body.push(line);
  }
  if (open !== undefined) {
    problems.push({ line: open.line, column: 1, message: `code fence ${open.marker} is never closed` });
  }
  return firstProblems(problems);
}

/** A fence of a language whose parser is not installed is left unchecked, not the whole file. */
async function fenceProblems(check: SyntaxChecker, body: string): Promise<SyntaxProblem[]> {
  try {
    return await check(body);
  } catch (error) {
    if (error instanceof SyntaxUnavailableError) return [];
    throw error;
  }
}
