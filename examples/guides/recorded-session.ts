// The getting-started session on the recording adapter: what the tools asked of the environment.
// Run it with `npx tsx recorded-session.ts` (first-session.ts and recording-operations.ts next to it).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext } from "@tackle/tools";
import { firstSession } from "./first-session.js";
import { createRecordingOperations, type RecordedCall } from "./recording-operations.js";

const folder = await mkdtemp(join(tmpdir(), "tackle-recorded-"));
const calls: RecordedCall[] = [];
const operations = createRecordingOperations(createLocalOperations(), (call) => calls.push(call));
const context = createToolContext({ cwd: folder, operations, disposeOperations: true });
try {
  await firstSession(context);
} finally {
  await context.dispose();
  await rm(folder, { recursive: true, force: true });
}

console.log("--- calls");
const byMethod = new Map<string, RecordedCall[]>();
for (const call of calls) byMethod.set(call.method, [...(byMethod.get(call.method) ?? []), call]);
for (const [method, list] of [...byMethod].sort(([a], [b]) => a.localeCompare(b))) {
  const failed = list.filter((call) => call.code !== undefined).map((call) => call.code);
  console.log(`${method}: ${list.length}${failed.length > 0 ? ` (failed: ${failed.join(", ")})` : ""}`);
}
