/**
 * A real directory tree for the grep/find tests: nested .gitignore files, a nested repository,
 * hidden files, unicode names, names that sort differently by segment than as strings, CRLF,
 * BOM, UTF-16, binary data and a symbolic link. Also a context built on real local operations
 * and the bundled ripgrep binary for comparisons with raw `rg`.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { ToolSession } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { createToolContext } from "../src/context/create-tool-context.js";

const run = promisify(execFile);

/** Files of the fixture tree: relative path -> content. */
export const FIXTURE_FILES: Record<string, string | Uint8Array> = {
  ".gitignore": "*.log\nbuild/\n!keep.log\n",
  ".ignore": "dotignored.txt\n",
  ".env": "TOKEN_NAME=needle-in-hidden\n",
  ".hidden/secret.txt": "a needle in a hidden directory\n",
  "keep.log": "needle kept by a negated rule\n",
  "app.log": "needle in an ignored log\n",
  "dotignored.txt": "needle ignored by .ignore\n",
  "build/out.js": "needle in an ignored directory\n",
  "a.txt": "needle a.txt\n",
  "a/x.txt": "needle a/x.txt\n",
  "a-b/x.txt": "needle a-b/x.txt\n",
  "src/main.ts":
    "import { util } from './util';\n// TODO: needle one\nconst x = 1;\nconst y = 2;\n// todo: needle two\nexport {};\n",
  "src/util.ts": "export function util() {\n  return 'needle';\n}\n",
  "src/.gitignore": "generated.ts\n",
  "src/generated.ts": "needle generated\n",
  "src/deep/more.ts": "line one\nneedle deep\n",
  "nested/.git/HEAD": "ref: refs/heads/main\n",
  "nested/.gitignore": "vendor/\n",
  "nested/app.log": "needle log in a nested repository\n",
  "nested/vendor/v.ts": "needle vendored\n",
  "nested/lib.ts": "needle nested lib\n",
  "ünïcode/файл.txt": "needle ünïcode\n",
  "日本語.md": "needle 日本語\n",
  "emoji-😀.txt": "needle emoji\n",
  "crlf.txt": "first\r\nneedle crlf\r\nlast\r\n",
  "bom.txt": "\uFEFFneedle after bom\n",
  "utf16.txt": utf16le("needle utf16\nsecond line\n"),
  "binary.bin": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01, 0x0a]),
  "flags.txt": "grep -e pattern\nrg --files lists\n-e\n",
};

function utf16le(text: string): Uint8Array {
  const body = Buffer.from(text, "utf16le");
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
}

/** Writes `files` under a new temp directory (with `.git` for a repository root unless `git: false`). */
export async function makeTree(
  files: Record<string, string | Uint8Array> = FIXTURE_FILES,
  options: { git?: boolean; links?: Record<string, string> } = {},
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "tackle-search-"));
  if (options.git !== false) await mkdir(join(root, ".git", "objects"), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
  const links =
    options.links ?? (files === FIXTURE_FILES ? { "link.txt": "src/main.ts", linkdir: "src" } : {});
  for (const [rel, target] of Object.entries(links)) await symlink(target, join(root, rel));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A context like a host would build, on `operations`, with the workspace rooted at `cwd`. */
export function makeContext(operations: Operations, cwd: string, roots: string[] = [cwd]): ToolSession {
  return createToolContext({ cwd, operations, roots });
}

/** Path of the ripgrep binary that `@vscode/ripgrep` ships (through operations-local's dependency). */
export async function rgBinary(): Promise<string> {
  const fromTools = createRequire(import.meta.url);
  const fromLocal = createRequire(fromTools.resolve("@tackle/operations-local/package.json"));
  const module = (await import(fromLocal.resolve("@vscode/ripgrep"))) as { rgPath: string };
  return module.rgPath;
}

/**
 * Runs raw `rg` with the flags that give the search contract's rules (those the local native
 * search passes), sorted by path: `flags`, then `--glob !.git` last so no glob can re-include
 * `.git`, then `tail` (`--`, pattern, paths). `requireGit` drops `--no-require-git`.
 */
export async function rawRg(
  cwd: string,
  flags: string[],
  tail: string[] = [],
  options: { requireGit?: boolean } = {},
): Promise<string> {
  const rg = await rgBinary();
  const common = [
    "--hidden",
    "--no-config",
    "--sort",
    "path",
    ...(options.requireGit ? [] : ["--no-require-git"]),
  ];
  try {
    const pending = run(rg, [...common, ...flags, "--glob", "!.git", ...tail], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    // Without a path argument rg would search its stdin when that is a pipe: close it.
    pending.child.stdin?.end();
    return (await pending).stdout;
  } catch (error) {
    // rg exits 1 when nothing matched.
    if ((error as { code?: number }).code === 1) return "";
    throw error;
  }
}
