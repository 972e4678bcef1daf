import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ExecOptions,
  type ExecResult,
  outputCutMarker,
  outputHeadBytes,
  outputTailBytes,
} from "@tackle/operations";
import { createSshOperations, type SshOperations } from "../../src/index.js";
import { startSshServer, type TestSshServer } from "./ssh-server.mjs";

/** `seq 1 count` as the command prints it. */
export const numbers = (count: number): string =>
  Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");

/** What the output file holds for `output` under `limit`: head, marker and tail past it, else all. */
export function keptUnder(output: string, limit: number): string {
  if (output.length <= limit) return output;
  const head = outputHeadBytes(limit);
  const tail = outputTailBytes(limit);
  return (
    output.slice(0, head) +
    outputCutMarker(limit, output.length - head - tail) +
    output.slice(output.length - tail)
  );
}

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

/**
 * POSIX sh functions for a command that holds Tackle's output copiers (tees, capper) back, the way
 * a loaded host or a slow disk would, until the end of the call:
 * - `freeze N A B` waits until N processes have both `A` and `B` among their arguments (whole
 *   arguments: `freeze 1 capper "$OUT"` finds the capper of output file OUT, `freeze 2 tee "$OUT"`
 *   its tees), stops them (SIGSTOP) and prints their pids;
 * - `release_on_term PID...` starts a process that leaves the command's group (`setsid`, the
 *   program named in `$SETSID`) but keeps its marker, so only the sweep for such processes
 *   reaches it (after the group's TERM and KILL), and continues PID... (SIGCONT) on that SIGTERM;
 *   it returns once that process is set up, so no early end of the group can catch it.
 */
export const COPIER_CONTROL = `
freeze() (
  want=$1; a=$2; b=$3; cd /proc || exit 1
  while :; do
    found=
    for p in [0-9]*; do
      grep -qzxF -- "$a" "$p/cmdline" 2>/dev/null && grep -qzxF -- "$b" "$p/cmdline" 2>/dev/null || continue
      # Not while setsid, about to run the copier, has its arguments: it may not have left the group yet.
      read -r c <"$p/comm" 2>/dev/null && [ "$c" != setsid ] || continue
      kill -STOP "$p" 2>/dev/null && found="$found $p"
    done
    set -- $found
    [ $# -lt "$want" ] || break
    sleep 0.01
  done
  echo "$@"
)
release_on_term() {
  # Returns once the process is out of the group with its trap set (it then closes the pipe).
  ready=$("$SETSID" sh -c 'trap "kill -CONT $*; exit 0" TERM; sleep 600 >/dev/null 2>&1 & echo ready; exec >/dev/null 2>&1; wait' release "$@" </dev/null &)
}
`;
