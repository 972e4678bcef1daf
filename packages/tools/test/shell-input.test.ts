import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCommandPolicy, findInputReaders } from "../src/shell/policy-loader.js";
import { wantedInput } from "../src/shell/prompt.js";
import { createShellToolDefinition, type ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createShellTestEnv, type ShellTestEnv, textOf } from "./shell-helpers.js";

let env: ShellTestEnv;
const bash = createBashToolDefinition({ killGraceMs: 500, promptSilenceMs: 600, pollIntervalMs: 100 });
const scope = { cwd: "/w", roots: ["/w"], platform: "posix" as const };

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  await env.dispose();
});

async function readersOf(command: string): Promise<string[]> {
  const verdict = await evaluateCommandPolicy("bash", command, scope);
  return (verdict.inputReaders ?? []).map((reader) => reader.command);
}

describe("commands that read the closed stdin, from the policy's parse", () => {
  it.each([
    ["read -p 'Continue? [y/N] ' x", ["read"]],
    ["read -r answer && echo $answer", ["read"]],
    ["if true; then read -n 1 key; fi", ["read"]],
    ["select x in a b; do echo $x; done", ["select"]],
    ["apt-get install curl", ["apt-get"]],
    ["sudo apt install -q curl", ["apt"]],
    ["npm init", ["npm"]],
    ["rm -ri build", ["rm"]],
    ["ssh-keygen -t ed25519", ["ssh-keygen"]],
  ])("finds %j", async (command, expected) => {
    expect(await readersOf(command)).toEqual(expected);
  });

  it.each([
    "read x < answers.txt",
    "read x <<< 'y'",
    "printf 'y\\n' | read x",
    "cat list | while read line; do echo $line; done",
    "while read line; do echo $line; done < list",
    "printf '1\\n' | select x in a b; do echo $x; break; done",
    "read -u 3 x",
    "apt-get install -y curl",
    "apt-get -qy install curl",
    "apt-get update",
    "npm init -y",
    "npm install",
    "rm -rf build",
    "ssh-keygen -N '' -f key",
    "echo read",
  ])("finds nothing in %j", async (command) => {
    expect(await readersOf(command)).toEqual([]);
  });
});

describe("bash: a command that waited for input that cannot come", () => {
  it("says so for `read -p` that fails with no output, and how to pass the answer", async () => {
    const outcome = await env.run(bash, { command: "read -p 'Continue? [y/N] ' x" });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("interactive_prompt");
    const text = textOf(outcome);
    expect(text).toContain("(no output)");
    expect(text).toContain("waited for input that cannot come");
    expect(text).toContain("`read -p 'Continue? [y/N] ' x <<< 'y'`");
    expect((outcome.details as ShellToolDetails).waitedForInput?.map((r) => r.command)).toEqual(["read"]);
  });

  it("says so with the command policy off too", async () => {
    const off = createBashToolDefinition({ policy: { disabled: true } });
    const outcome = await env.run(off, { command: "read -r x" });
    expect(outcome.errorCode).toBe("interactive_prompt");
    expect(textOf(outcome)).toContain("waited for input that cannot come");
  });

  it("says so for a select menu that ended at its prompt", async () => {
    const outcome = await env.run(bash, { command: "select x in a b; do echo $x; done" });
    expect(outcome.isError).toBe(true);
    expect(textOf(outcome)).toContain("printf '1\\n' | select x in a b; do echo $x; done");
  });

  it("says nothing when the reading command succeeded", async () => {
    const ok = await env.run(bash, { command: "read x; echo carried on" });
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).not.toContain("cannot come");
    expect(textOf(ok)).not.toContain("read stdin");
  });

  it("a script that printed before its read failed: the read got an empty answer, said as a condition", async () => {
    const command = "echo 'Deploying to production'; read -p 'Continue? ' ok; [ \"$ok\" = y ] || exit 1";
    const outcome = await env.run(bash, { command });
    // It printed, so the empty answer is a likely cause, not a certain one: the code stays the run's.
    expect(outcome.errorCode).toBe("execution_failed");
    const text = textOf(outcome);
    expect(text).toContain("Deploying to production");
    expect(text).toContain("It read stdin, which is closed, and got an empty answer (end-of-file).");
    expect(text).toContain("If it failed for want of that answer: `read -p 'Continue? ' ok` reads it");
    expect(text).toContain("`read -p 'Continue? ' ok <<< 'y'`");
    const details = outcome.details as ShellToolDetails;
    expect(details.readClosedStdin?.map((r) => r.command)).toEqual(["read"]);
    expect(details.waitedForInput).toBeUndefined();
    // A loud failure of its own still gets the condition, never the certain "cannot come".
    const loud = await env.run(bash, { command: "echo 'build failed'; read x; exit 3" });
    expect(loud.errorCode).toBe("execution_failed");
    expect(textOf(loud)).not.toContain("cannot come");
    expect(textOf(loud)).toContain("If it failed for want of that answer");
  });

  it("says nothing for a silent failure that read nothing", async () => {
    const outcome = await env.run(bash, { command: "false" });
    expect(outcome.errorCode).toBe("execution_failed");
    expect(textOf(outcome)).not.toContain("cannot come");
  });
});

async function powershellReadersOf(command: string): Promise<string[]> {
  const verdict = await evaluateCommandPolicy("pwsh", command, scope);
  return (verdict.inputReaders ?? []).map((reader) => reader.command);
}

// The PowerShell grammar is WASM: these run without pwsh.
describe("PowerShell code that asks for input, from the policy's parse", () => {
  it.each([
    ["$name = Read-Host 'Name'", ["Read-Host"]],
    ["Read-Host -Prompt 'Token' -AsSecureString", ["Read-Host"]],
    ["$cred = Get-Credential", ["Get-Credential"]],
    ["$a = $Host.UI.ReadLine()", ["$Host.UI.ReadLine"]],
    ["$s = $host.ui.ReadLineAsSecureString()", ["$host.ui.ReadLineAsSecureString"]],
    ["$c = $Host.UI.PromptForChoice('Deploy', 'Sure?', $choices, 0)", ["$Host.UI.PromptForChoice"]],
    ["[Console]::ReadKey($true) | Out-Null", ["[Console].ReadKey"]],
    ["$line = [System.Console]::ReadLine().Trim()", ["[System.Console].ReadLine"]],
    ["Write-Output 'building'; pause", ["pause"]],
    ["pwsh -Command 'Read-Host x'", ["Read-Host"]],
  ])("finds %j", async (command, expected) => {
    expect(await powershellReadersOf(command)).toEqual(expected);
  });

  it.each([
    "Write-Host 'Read-Host'",
    "$reader.ReadLine()",
    "[IO.File]::ReadAllText('a.txt')",
    "Get-Content a.txt | ForEach-Object { $_ }",
    "$cred = [pscredential]::new('u', (ConvertTo-SecureString $env:PW -AsPlainText -Force))",
  ])("finds nothing in %j", async (command) => {
    expect(await powershellReadersOf(command)).toEqual([]);
  });

  it("finds them with the policy off too", async () => {
    const readers = await findInputReaders("pwsh", "$x = Read-Host 'Name'", scope);
    expect(readers.map((reader) => reader.command)).toEqual(["Read-Host"]);
    expect(readers[0]?.answer).toContain("`$answer = 'y'` in place of `Read-Host 'Name'`");
  });

  it("knows pwsh's own words for a prompt it cannot show", () => {
    expect(
      wantedInput(
        "Read-Host: PowerShell is in NonInteractive mode. Read and Prompt functionality is not available.",
      ),
    ).toBe(true);
    expect(
      wantedInput(
        'Exception calling "ReadKey": "Cannot read keys when either application does not have a console or when console input has been redirected."',
      ),
    ).toBe(true);
  });

  it("the policy's refusal of Read-Host says how to do without the prompt", async () => {
    // The policy runs before pwsh is looked for: this needs no pwsh.
    const powershell = createShellToolDefinition("pwsh");
    const outcome = await env.run(powershell, { command: "$name = Read-Host 'Name'; Write-Output $name" });
    expect(outcome.errorCode).toBe("policy_denied");
    const text = textOf(outcome);
    expect(text).toContain("Nobody can answer a prompt here: `Read-Host 'Name'` reads it");
    expect(text).toContain("`$answer = 'y'`");
  });
});
