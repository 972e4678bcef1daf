// Audit and recover: every tool call leaves evidence (what was asked, what allowed it, what ran,
// what came out, how it ended, what it changed) in an audit sink, keyed by the call's id. Two
// calls here, then their records, read the way a person reads them after the fact.
// Run it with `npx tsx audit.ts`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleAuditRecords, createMemoryAuditSink, invokeTool } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext, createTools } from "@tackle/tools";

const folder = await mkdtemp(join(tmpdir(), "tackle-audit-"));
// #region record
// In production: createJsonlAuditSink(path) from @tackle/session/audit (one JSON line per event).
const sink = createMemoryAuditSink();
const context = createToolContext({
  cwd: folder,
  operations: createLocalOperations(),
  disposeOperations: true,
  audit: sink, // the tools record through the context (redacted before it reaches the sink)
});
const { write, bash } = createTools({ context, names: ["write", "bash"] });
// The host records each call's intent and end into the same sink.
const audit = { sink: context.audit ?? sink, requestedBy: "model" as const, sessionId: "guide" };

await invokeTool(write, { path: "report.txt", content: "draft\n" }, { audit, toolCallId: "call-1" });
// Output that claims success while the exit code says otherwise.
const command = "echo ALL PASSED; echo more >> report.txt; exit 1";
await invokeTool(bash, { command }, { audit, toolCallId: "call-2" });
// #endregion record

// #region read
for (const record of assembleAuditRecords(sink.events)) {
  const end = record.end;
  console.log(`--- ${record.callId} ${record.tool}: ${end ? end.status : "NOT ENDED"}`);
  // A shell call also records how its process ended: the exit code decides, never the text.
  if (record.processEnd?.exitCode !== undefined) console.log(`exit code ${record.processEnd.exitCode}`);
  for (const decision of record.decisions) console.log(`decision ${decision.gate}: ${decision.verdict}`);
  if (record.output?.artifact) console.log(`output kept: ${record.output.artifact.size} bytes`);
  for (const effect of record.sideEffects)
    for (const file of effect.files)
      console.log(`${effect.method}: ${file.change} ${file.path.replace(`${folder}/`, "")}`);
}
// #endregion read

await context.dispose();
await rm(folder, { recursive: true, force: true });
