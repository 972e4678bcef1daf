/** One marked block of a page: `<!-- getting-started: KIND [FILE] -->` on the line before its fence. */
export interface PageStep {
  /** `build` (the clone and pack step), `run` (shell commands), `file` (a file to save), `output`. */
  kind: string;
  /** The file name of a `file` step. */
  file?: string;
  /** The block's text, exactly as the page prints it. */
  text: string;
}

const MARKED_BLOCK = /<!-- getting-started: (\w+)(?: (\S+))? -->\n```[^\n]*\n([\s\S]*?)\n```/g;

/** The marked blocks of a page, in page order. */
export function pageSteps(markdown: string): PageStep[] {
  return [...markdown.matchAll(MARKED_BLOCK)].map((match) => ({
    kind: match[1] ?? "",
    ...(match[2] !== undefined ? { file: match[2] } : {}),
    text: `${match[3] ?? ""}\n`,
  }));
}
