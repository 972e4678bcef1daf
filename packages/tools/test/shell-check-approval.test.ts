// checkApproval of the shell tools: the command policy's verdict before anything runs, and a call
// approved ahead of time that the policy's own `ask` does not ask about again.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runApprovedCall, wrapToolDefinition } from "@tackle/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createShellTestEnv, type ShellTestEnv } from "./shell-helpers.js";

let env: ShellTestEnv | undefined;
afterEach(async () => {
  await env?.dispose();
  env = undefined;
});

async function bashTool() {
  env = await createShellTestEnv();
  const context = env.ctx;
  return wrapToolDefinition(createBashToolDefinition({ jobs: env.jobs }), () => context);
}

describe("bash checkApproval", () => {
  it("allow for a plain command, nothing run", async () => {
    const tool = await bashTool();
    expect(await tool.checkApproval!({ command: "touch ran.txt" })).toEqual({ verdict: "allow" });
    expect(existsSync(join(env!.workspace, "ran.txt"))).toBe(false);
  });

  it("ask with the rule hit and why", async () => {
    const tool = await bashTool();
    const check = await tool.checkApproval!({ command: "sudo true" });
    expect(check).toMatchObject({ verdict: "ask", reason: expect.stringContaining("privilege-escalation") });
  });

  it("deny with the refusal the model would read", async () => {
    const tool = await bashTool();
    const check = await tool.checkApproval!({ command: "vim notes.txt" });
    expect(check).toMatchObject({ verdict: "deny", reason: expect.stringContaining("Rewrite the command") });
  });

  it("deny when the cwd lies outside the workspace", async () => {
    const tool = await bashTool();
    const check = await tool.checkApproval!({ command: "ls", cwd: "/" });
    expect(check.verdict).toBe("deny");
  });

  it("an ask runs inside a call approved ahead; outside it the headless UI refuses", async () => {
    const tool = await bashTool();
    const args = { command: "sudo true; touch ran.txt" };
    const refused = await env!.run(createBashToolDefinition({ jobs: env!.jobs }), args);
    expect(refused).toMatchObject({ isError: true, errorCode: "policy_denied" });
    expect(existsSync(join(env!.workspace, "ran.txt"))).toBe(false);
    await runApprovedCall("c1", () => tool.execute("c1", args, undefined, undefined));
    expect(existsSync(join(env!.workspace, "ran.txt"))).toBe(true);
  });
});
