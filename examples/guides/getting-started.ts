// Getting started: a model's everyday tools, called by hand on a fresh temporary folder.
// Run it with `npx tsx getting-started.ts` (first-session.ts next to it).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalToolContext } from "@tackle/tools/local";
import { firstSession } from "./first-session.js";

const folder = await mkdtemp(join(tmpdir(), "tackle-start-"));
// #region context
// One context per session: the workspace, what was read, the session's artifacts.
const context = createLocalToolContext({ cwd: folder });
// #endregion context
try {
  await firstSession(context);
} finally {
  await context.dispose(); // ends background jobs, removes the session's artifacts
  await rm(folder, { recursive: true, force: true });
}
