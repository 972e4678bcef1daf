// A real temp workspace with the real tools of @tackle/tools on this machine.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnyAgentTool } from "@tackle/agent-core";
import { createAllTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

/** examples/demo/workspace: greet() lacks its "!" and `node test.mjs` fails until it is fixed. */
export const DEMO_WORKSPACE = path.resolve(import.meta.dirname, "../../../../examples/demo/workspace");

export interface Workspace {
  dir: string;
  tools: AnyAgentTool[];
  tool(name: string): AnyAgentTool;
  dispose(): Promise<void>;
}

/** A copy of the demo workspace in a temp dir, with every tool bound to it. */
export async function demoWorkspace(): Promise<Workspace> {
  const dir = await mkdtemp(path.join(tmpdir(), "tackle-ai-sdk-"));
  await cp(DEMO_WORKSPACE, dir, { recursive: true });
  const context = createLocalToolContext({ cwd: dir });
  const tools: AnyAgentTool[] = Object.values(createAllTools({ context })).filter(
    (tool) => tool.name !== "powershell",
  );
  return {
    dir,
    tools,
    tool(name) {
      const found = tools.find((candidate) => candidate.name === name);
      if (found === undefined) throw new Error(`no tool ${name}`);
      return found;
    },
    async dispose() {
      await context.dispose().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
