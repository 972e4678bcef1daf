import { createRequire } from "node:module";

let major: number | undefined;

/**
 * The major version of the `ai` package this module resolves, read once from its package.json;
 * 6 when it cannot be read. The few prompt shapes that differ between majors (an image inside a
 * tool result) are chosen by it, so neither major logs a deprecation warning per call.
 */
export function aiMajorVersion(): number {
  if (major !== undefined) return major;
  try {
    const { version } = createRequire(import.meta.url)("ai/package.json") as { version?: unknown };
    const parsed = Number.parseInt(String(version), 10);
    major = Number.isFinite(parsed) ? parsed : 6;
  } catch {
    major = 6;
  }
  return major;
}
