/**
 * Vitest global setup: every `tackle` the tests start records its audit trail under a temporary
 * state directory of this run (XDG_STATE_HOME), never in the user's own, removed at the end.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export default function setup(): () => void {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-cli-test-state-"));
  process.env.XDG_STATE_HOME = state;
  delete process.env.TACKLE_AUDIT_FILE;
  return () => fs.rmSync(state, { recursive: true, force: true });
}
