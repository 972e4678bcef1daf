import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";

/**
 * Temp directories for one test file: `make(prefix)` creates one, `tree(prefix, files)` creates
 * one holding `files` (relative path -> text). They are removed after each test, or after the
 * file's last test with `{ keep: "file" }` (for directories a `beforeAll` shares).
 */
export function tempDirs(options: { keep?: "test" | "file" } = {}) {
  const dirs: string[] = [];
  const removeAll = () => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  };
  // Removing a large tree on a loaded machine can take longer than the default hook timeout.
  if (options.keep === "file") afterAll(removeAll, 120_000);
  else afterEach(removeAll, 120_000);
  const make = (prefix: string): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  return {
    make,
    tree(prefix: string, files: Record<string, string>): string {
      const dir = make(prefix);
      writeTree(dir, files);
      return dir;
    },
  };
}

/** Writes `files` (relative path -> text) below `dir`, making directories as needed. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}
