import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectPrompt, wantedInput } from "../src/shell/prompt.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createShellTestEnv, type ShellTestEnv, textOf } from "./shell-helpers.js";

let env: ShellTestEnv;
const bash = createBashToolDefinition({ killGraceMs: 500, promptSilenceMs: 600, pollIntervalMs: 100 });

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  await env.dispose();
});

describe("interactive prompt shapes", () => {
  it.each([
    "Do you want to continue? [Y/n] ",
    "Remove 3 packages? [y/N]",
    "Are you sure you want to continue connecting (yes/no/[fingerprint])? ",
    "Overwrite existing file? (yes/no) ",
    "Password: ",
    "[sudo] password for me: ",
    "Enter passphrase for key '/home/me/.ssh/id_ed25519': ",
    "Press Enter to continue...",
    "Press any key to continue . . .",
    "Username for 'https://github.com': ",
    "Password for 'https://me@github.com': ",
    "? Project name: ",
  ])("recognises %j as a prompt", (line) => {
    expect(detectPrompt(`some output\n${line}`)).toBe(line.trimEnd());
  });

  it.each([
    "Proceed? [y/N] assuming yes (CI)\ninstalled 3 packages",
    "Password: ******** accepted\nlogged in",
    "All tests passed",
    "warning: password is set in the config file",
    "",
  ])("does not take %j as a prompt", (text) => {
    expect(detectPrompt(text)).toBeUndefined();
  });

  it("recognises the errors of programs that found stdin closed", () => {
    expect(wantedInput("Traceback ...\nEOFError: EOF when reading a line")).toBe(true);
    expect(wantedInput("the input device is not a TTY")).toBe(true);
    expect(wantedInput("error: expected ';' at line 3")).toBe(false);
  });
});

describe("bash tool and prompts", () => {
  it("lets a command print [y/N], keep printing, and finish", async () => {
    const outcome = await env.run(bash, {
      command: "echo 'Continue? [y/N] '; for i in 1 2 3 4 5 6; do sleep 0.2; echo tick $i; done",
    });
    expect(outcome.isError).toBe(false);
    const text = textOf(outcome);
    expect(text).toContain("tick 6");
    expect(text).not.toMatch(/non-interactively/);
    expect((outcome.details as ShellToolDetails).run?.prompt).toBeUndefined();
  });

  it("lets a command whose last line looks like a prompt exit 0 without a hint", async () => {
    const outcome = await env.run(bash, { command: "printf 'Continue? [y/N] '; sleep 0.2" });
    expect(outcome.isError).toBe(false);
    expect(textOf(outcome)).not.toMatch(/non-interactively/);
  });

  it.each([
    ["(yes/no)", "printf 'Are you sure you want to continue connecting (yes/no)? '; sleep 100"],
    ["Password:", "printf 'Password: '; sleep 100"],
    ["Press Enter", "echo 'Press Enter to continue'; sleep 100"],
  ])("stops a command silent after %s and says how to retry", async (_shape, command) => {
    const outcome = await env.run(bash, { command });
    expect(outcome.isError).toBe(true);
    const details = outcome.details as ShellToolDetails;
    expect(details.run?.prompt).toBeDefined();
    expect(details.run?.status).toBe("cancelled");
    expect(textOf(outcome)).toMatch(/non-interactively/);
  });
});
