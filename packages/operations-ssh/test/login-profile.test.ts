import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/**
 * bash run by sshd sources ~/.bashrc (Debian's bash does for a non-interactive shell whose
 * SSH_CLIENT is set, at shell level 1). The login shell that runs the adapter's wrapper does it
 * once; the command's own bash must not do it again in the same process. The server here runs
 * sessions as a fresh login would (SHLVL unset to 0) with HOME on a temp dir whose .bashrc logs
 * the pid of every shell that sources it.
 */
let server: TestSshServer;
let ops: SshOperations;
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "tackle-ssh-home-"));
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text written to the .bashrc
  await writeFile(join(home, ".bashrc"), 'echo "$$" >> "${HOME}/sourced"\n');
  server = await startSshServer({ env: { SHLVL: "0", HOME: home } });
  ops = createSshOperations({ ...server.connectOptions, ripgrep: false });
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
  await rm(home, { recursive: true, force: true });
});

describe("the remote ~/.bashrc", () => {
  it("is sourced once for a bash command, not again by the command's own shell", async () => {
    let pid = 0;
    const result = await ops.exec('echo "$HOME"', {
      shell: "bash",
      cwd: "/",
      onSpawn: (spawn) => {
        pid = spawn.pid;
      },
    });
    expect(result.status).toBe("completed");
    expect(pid).toBeGreaterThan(0);
    const sourcedBy = (await readFile(join(home, "sourced"), "utf8")).split("\n").filter(Boolean);
    // The command's process is the login shell exec'd into the wrapper and then into bash.
    expect(sourcedBy.filter((line) => line === String(pid))).toEqual([String(pid)]);
  });
});
