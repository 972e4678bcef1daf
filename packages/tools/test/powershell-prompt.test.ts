/**
 * PowerShell code that asks for input, end to end through the powershell tool. pwsh is not on
 * every machine, so a stand-in on this environment's PATH plays it: it answers the version
 * probe and fails any script the way `pwsh -NonInteractive` fails at Read-Host (its exact
 * words), which is all the tool sees of pwsh here. The parse of the script is the real one.
 */
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext, type ToolContext } from "../src/context/create-tool-context.js";
import { createTools } from "../src/factories.js";
import type { ShellToolDetails } from "../src/shell/tool.js";

const NON_INTERACTIVE =
  "Read-Host: PowerShell is in NonInteractive mode. Read and Prompt functionality is not available.";

let dir: string;
let context: ToolContext;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-pwsh-prompt-")));
  const bin = join(dir, "bin");
  await mkdir(bin);
  await mkdir(join(dir, "ws"));
  // Called as: pwsh -NoProfile -NonInteractive -Command <script>.
  await writeFile(
    join(bin, "pwsh"),
    [
      "#!/bin/sh",
      'case "$4" in *PSVersionTable*) echo 7.4.0; exit 0 ;; esac',
      `echo '${NON_INTERACTIVE}' >&2`,
      "exit 1",
      "",
    ].join("\n"),
  );
  await chmod(join(bin, "pwsh"), 0o755);
  const operations = createLocalOperations({
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });
  context = createToolContext({ cwd: join(dir, "ws"), operations });
});
afterAll(async () => {
  await context.dispose();
  await rm(dir, { recursive: true, force: true });
});

const textOf = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

describe("powershell: code that asked for input that cannot come", () => {
  it("names $Host.UI.ReadLine() (which the policy lets run) and how to do without it", async () => {
    const { powershell } = createTools({ context, names: ["powershell"] });
    const outcome = await invokeTool(powershell, { command: "$a = $Host.UI.ReadLine(); Write-Output $a" });
    expect(outcome.errorCode).toBe("interactive_prompt");
    const text = textOf(outcome);
    expect(text).toContain("It waited for input that cannot come");
    expect(text).toContain("`$Host.UI.ReadLine()` reads it: put the answer in the script instead of asking");
    const details = outcome.details as ShellToolDetails;
    expect(details.waitedForInput?.map((reader) => reader.command)).toEqual(["$Host.UI.ReadLine"]);
  });

  it("names Read-Host when the policy is off (it parses the command for this alone)", async () => {
    const { powershell } = createTools({
      context,
      names: ["powershell"],
      tools: { powershell: { policy: { disabled: true } } },
    });
    const outcome = await invokeTool(powershell, { command: "$name = Read-Host 'Name'" });
    expect(outcome.errorCode).toBe("interactive_prompt");
    expect(textOf(outcome)).toContain("`Read-Host 'Name'` reads it: put the answer in the script");
  });

  it("falls back to the general advice when the parse finds no prompt (a script file's Read-Host)", async () => {
    const { powershell } = createTools({ context, names: ["powershell"] });
    const outcome = await invokeTool(powershell, { command: "./deploy.ps1" });
    expect(outcome.errorCode).toBe("interactive_prompt");
    expect(textOf(outcome)).toContain("Retry non-interactively");
  });
});
