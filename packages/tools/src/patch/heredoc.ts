/**
 * Patches that arrive wrapped in a shell heredoc, as Codex-trained models write them: through
 * the shell tool (`apply_patch <<'EOF'` ... `EOF`, optionally after `cd dir &&`), or as the
 * apply_patch tool's input with the wrapper left on. Only these exact shapes are recognised;
 * anything else is not a patch command and runs as an ordinary command.
 */

/** The command names Codex-trained models use for the patch command. */
export const PATCH_COMMAND_NAMES = ["apply_patch", "applypatch"] as const;

/** `apply_patch <<'EOF'` (or `<<EOF`, `<<"EOF"`, `<< 'PATCH'`), optionally after `cd <dir> &&`. */
const COMMAND_LINE =
  /^\s*(?:cd\s+(?<dir>'[^']*'|"[^"]*"|[^\s'";&|<>]+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(?<quote>['"]?)(?<tag>[A-Za-z_][A-Za-z0-9_]*)\k<quote>\s*$/;

/** A heredoc opener on its own line: `<<'EOF'`, `<<EOF`, `<<"EOF"`. */
const OPENER_LINE = /^<<-?\s*(?<quote>['"]?)(?<tag>[A-Za-z_][A-Za-z0-9_]*)\k<quote>\s*$/;

/** A patch command found in a shell command. */
export interface PatchCommand {
  /** The patch text between the heredoc lines. */
  patch: string;
  /** The directory of a leading `cd <dir> &&`, unquoted; undefined without one. */
  cd?: string;
}

/**
 * Recognises `apply_patch <<'EOF'\n...\nEOF` (the whole command, nothing after the closing tag
 * but blank lines). Returns undefined for any other command.
 */
export function recognizePatchCommand(command: string): PatchCommand | undefined {
  const lines = command.replace(/\r\n/g, "\n").trimEnd().split("\n");
  const match = COMMAND_LINE.exec(lines[0] ?? "");
  if (!match?.groups || lines.length < 3) return undefined;
  const tag = match.groups.tag as string;
  if ((lines[lines.length - 1] as string).trim() !== tag) return undefined;
  const inner = lines.slice(1, -1);
  // The closing tag must end the heredoc: a second one earlier would end it there.
  if (inner.some((line) => line.trim() === tag)) return undefined;
  const dir = match.groups.dir;
  return { patch: inner.join("\n"), ...(dir !== undefined ? { cd: unquote(dir) } : {}) };
}

/**
 * The patch inside a heredoc wrapper left on a patch text (`<<'EOF'` first, `EOF` last, or the
 * whole `apply_patch <<'EOF'` command); the text unchanged when it has none.
 */
export function unwrapHeredoc(text: string): string {
  const command = recognizePatchCommand(text);
  if (command) return command.patch.trim();
  const lines = text.split("\n");
  const opener = OPENER_LINE.exec(lines[0]?.trim() ?? "");
  if (opener?.groups && lines.length >= 3 && lines[lines.length - 1]?.trim() === opener.groups.tag) {
    return lines.slice(1, -1).join("\n").trim();
  }
  return text;
}

function unquote(word: string): string {
  const first = word[0];
  return (first === "'" || first === '"') && word.endsWith(first) ? word.slice(1, -1) : word;
}
