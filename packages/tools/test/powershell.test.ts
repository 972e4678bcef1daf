import { describe, expect, it } from "vitest";
import { envFilterPrelude } from "../src/shell/env.js";
import { createPowershellToolDefinition, detectPowershell } from "../src/tools/powershell.js";
import { createShellTestEnv, textOf } from "./shell-helpers.js";

const probe = await (async () => {
  const env = await createShellTestEnv();
  try {
    return await detectPowershell(env.ctx.operations, { cwd: env.workspace });
  } finally {
    await env.dispose();
  }
})();
const withPwsh = probe.available ? it : it.skip;
const withoutPwsh = probe.available ? it.skip : it;

describe("powershell tool", () => {
  it("has the same parameters as bash and says it runs pwsh -NoProfile -NonInteractive", () => {
    const tool = createPowershellToolDefinition();
    expect(tool.name).toBe("powershell");
    expect(Object.keys(tool.parameters.properties)).toEqual(
      expect.arrayContaining(["command", "timeout", "cwd", "background"]),
    );
    expect(tool.description).toContain("pwsh -NoProfile -NonInteractive");
  });

  it("filters secret-named variables with PowerShell code, not bash code", () => {
    const prelude = envFilterPrelude("pwsh");
    expect(prelude).toContain("Get-ChildItem env:");
    expect(prelude).toContain("Remove-Item -LiteralPath");
    expect(prelude).not.toContain("unset");
  });

  withoutPwsh(
    "refuses with not_supported and points to bash where pwsh is missing (skipped: pwsh is installed)",
    async () => {
      const env = await createShellTestEnv();
      try {
        const outcome = await env.run(createPowershellToolDefinition(), { command: "Get-Date" });
        expect(outcome.isError).toBe(true);
        expect(textOf(outcome)).toContain("PowerShell (pwsh) is not available");
        expect(textOf(outcome)).toContain("bash");
      } finally {
        await env.dispose();
      }
    },
  );

  withPwsh(
    "runs a command, reports exit codes and sanitises output (skipped: pwsh not installed)",
    async () => {
      const env = await createShellTestEnv();
      try {
        const tool = createPowershellToolDefinition();
        const ok = await env.run(tool, { command: "Write-Output 'hello'; Write-Error 'oops' 2>&1; exit 0" });
        expect(textOf(ok)).toContain("hello");
        const failed = await env.run(tool, { command: "Write-Output 'ALL PASSED'; exit 3" });
        expect(failed.isError).toBe(true);
        expect(textOf(failed)).toContain("exit code 3");
        const timedOut = await env.run(tool, { command: "Start-Sleep -Seconds 100", timeout: 1 });
        expect(textOf(timedOut)).toContain("timed out");
        const denied = await env.run(tool, { command: "Remove-Item -Recurse -Force /" });
        expect(textOf(denied)).toContain("recursive-delete");
      } finally {
        await env.dispose();
      }
    },
  );
});
