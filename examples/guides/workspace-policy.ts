// The workspace policy: which paths the tools may read and write. The project folder is the
// workspace; outside it the tools may read (reference material next to it) but never write, and
// a link cannot smuggle a write out. Run it with `npx tsx workspace-policy.ts`.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext, createTools } from "@tackle/tools";

const base = await mkdtemp(join(tmpdir(), "tackle-policy-"));
const project = join(base, "project");
const shared = join(base, "shared");
await mkdir(project);
await mkdir(shared);
await writeFile(join(shared, "style.md"), "Use tabs.\n");
await writeFile(join(base, "config.txt"), "keep me\n");
await symlink(join(base, "config.txt"), join(project, "innocent.txt")); // a link out of the workspace

// #region policy
const context = createToolContext({
  cwd: project,
  operations: createLocalOperations(),
  disposeOperations: true,
  roots: [project], // the workspace: read and write (default: [cwd])
  outside: "read-only", // elsewhere: read only ("deny", the default, refuses; "allow" allows)
});
// #endregion policy
const { read, write } = createTools({ context, names: ["read", "write"] });

async function attempt(title: string, run: Promise<{ isError: boolean; errorCode?: string }>): Promise<void> {
  const outcome = await run;
  console.log(`${title}: ${outcome.isError ? `refused (${outcome.errorCode})` : "ok"}`);
}

try {
  await attempt("write project/notes.md", invokeTool(write, { path: "notes.md", content: "hi\n" }));
  await attempt("read shared/style.md", invokeTool(read, { path: "../shared/style.md" }));
  await attempt("write shared/style.md", invokeTool(write, { path: "../shared/style.md", content: "x\n" }));
  await attempt(
    "write innocent.txt (a link out)",
    invokeTool(write, { path: "innocent.txt", content: "x\n" }),
  );
} finally {
  await context.dispose();
  await rm(base, { recursive: true, force: true });
}
