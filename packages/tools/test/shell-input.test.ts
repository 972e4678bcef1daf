import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCommandPolicy } from "../src/shell/policy/engine.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
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

  it("says nothing when the reading command succeeded or printed its own failure", async () => {
    const ok = await env.run(bash, { command: "read x; echo carried on" });
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).not.toContain("cannot come");
    const loud = await env.run(bash, { command: "echo 'build failed'; read x; exit 3" });
    expect(loud.errorCode).toBe("execution_failed");
    expect(textOf(loud)).not.toContain("cannot come");
  });

  it("says nothing for a silent failure that read nothing", async () => {
    const outcome = await env.run(bash, { command: "false" });
    expect(outcome.errorCode).toBe("execution_failed");
    expect(textOf(outcome)).not.toContain("cannot come");
  });
});
