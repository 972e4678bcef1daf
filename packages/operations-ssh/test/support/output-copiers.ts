import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExecOptions, ExecResult } from "@tackle/operations";
import { createSshOperations, type SshOperations } from "../../src/index.js";
import { startSshServer, type TestSshServer } from "./ssh-server.mjs";

/**
 * Runs `command` with bash in `cwd`, writing `outputPath` and streaming (30 s timeout unless
 * `options` says otherwise); resolves with the result and the stdout the host received.
 */
export async function execStreamed(
  ops: SshOperations,
  command: string,
  cwd: string,
  outputPath: string,
  options: Partial<ExecOptions> = {},
): Promise<{ result: ExecResult; stdout: string }> {
  let stdout = "";
  const decoder = new TextDecoder();
  const result = await ops.exec(command, {
    shell: "bash",
    cwd,
    outputPath,
    timeoutMs: 30_000,
    onChunk: (chunk) => {
      if (chunk.stream === "stdout") stdout += decoder.decode(chunk.bytes, { stream: true });
    },
    ...options,
  });
  return { result, stdout };
}

/** A test sshd (with or without `setsid` on its sessions' PATH) and an adapter logged in to it. */
export interface ExecHost {
  server: TestSshServer;
  ops: SshOperations;
  stop(): Promise<void>;
}

/**
 * Starts a test sshd and connects to it. Without `setsid`, the sessions' PATH is a directory of
 * links to every program in /usr/bin but setsid; either way it checks that `command -v setsid`
 * answers as asked (the wrapper finds setsid the same way), so a test's title is true.
 */
export async function startExecHost(withSetsid: boolean): Promise<ExecHost> {
  let bin: string | undefined;
  if (!withSetsid) {
    bin = await mkdtemp(join(tmpdir(), "tackle-bin-"));
    for (const entry of await readdir("/usr/bin")) {
      if (entry !== "setsid") await symlink(join("/usr/bin", entry), join(bin, entry));
    }
  }
  const server = await startSshServer(bin === undefined ? {} : { env: { PATH: bin } });
  const ops = createSshOperations(server.connectOptions);
  const stop = async () => {
    await ops.dispose();
    await server.stop();
    if (bin !== undefined) await rm(bin, { recursive: true, force: true });
  };
  const probe = await ops.exec("command -v setsid", { shell: "sh", cwd: "/" });
  if ((probe.exitCode === 0) !== withSetsid) {
    await stop();
    throw new Error(`command -v setsid exited ${probe.exitCode}`);
  }
  return { server, ops, stop };
}
