import { compileGuides } from "./run-guide.js";

/** The guides compile once per run, before any test file runs one (they share the output folder). */
export async function setup(): Promise<void> {
  await compileGuides();
}
