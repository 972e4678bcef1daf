import type { ExecResult, Operations } from "@tackle/operations";
import { RUN_ID_VARIABLE } from "./env.js";

/** What the escape hunt found and did. */
export interface EscapeHuntResult {
  /** The hunt ran and its answer can be trusted. False on Windows or without /proc. */
  supported: boolean;
  /** Pids that carried the run marker when the hunt started. */
  found: number[];
  /** Pids still alive after SIGTERM, the grace period and SIGKILL (empty when all ended). */
  remaining: number[];
  /** Why the hunt could not run, when it could not. */
  note?: string;
}

/**
 * A POSIX sh script (dash, bash, busybox) that finds every process whose initial environment
 * carries `TACKLE_RUN_ID=<runId>` through /proc/<pid>/environ, sends SIGTERM, waits up to
 * `graceMs`, sends SIGKILL to survivors, and prints `found ...` and `remaining ...` lines.
 * Processes that left the process group (`setsid`, `nohup ... &` in a subshell, daemons that
 * double-fork) keep their environment, so the marker finds them where the group kill did not.
 * The hunt's own shell does not carry the marker (it is not in its environment).
 */
export function escapeHuntScript(runId: string, graceMs: number): string {
  if (!/^[0-9a-f]+$/.test(runId)) throw new Error("run id must be hex");
  const steps = Math.max(1, Math.ceil(graceMs / 100));
  return [
    "[ -r /proc/self/environ ] || { echo noproc; exit 0; }",
    `m='${RUN_ID_VARIABLE}=${runId}'`,
    // Reading the environ of a process stuck in the kernel can block: bound each scan.
    "t=; command -v timeout >/dev/null 2>&1 && t='timeout 5'",
    'hunt() { $t grep -lzxF "$m" /proc/[0-9]*/environ 2>/dev/null | sed -n \'s#^/proc/\\([0-9]*\\)/environ$#\\1#p\' | grep -vx "$$"; }',
    // A process in the middle of execve reads as an empty environment for a moment: when the
    // first look finds nothing, look once more (the exec has finished by then).
    'p=$(hunt); [ -n "$p" ] || p=$(hunt)',
    'echo "found" $p',
    '[ -z "$p" ] && { echo remaining; exit 0; }',
    "kill -TERM $p 2>/dev/null",
    `i=0; r=$p; while [ -n "$r" ] && [ $i -lt ${steps} ]; do sleep 0.1; r=$(hunt); i=$((i+1)); done`,
    'if [ -n "$r" ]; then kill -KILL $r 2>/dev/null; sleep 0.2; r=$(hunt); fi',
    'echo "remaining" $r',
  ].join("\n");
}

/**
 * True when the environment already found and ended the run's escaped processes by its own
 * marker and confirmed it (`cleanup.escapesChecked`, operations-local on Linux): a hunt would be
 * one more exec (a round trip over SSH) that can find nothing.
 */
export function escapesAlreadyEnded(result: Pick<ExecResult, "cleanup">): boolean {
  return result.cleanup.confirmed && result.cleanup.escapesChecked === true;
}

function parsePids(line: string | undefined): number[] {
  if (!line) return [];
  return line
    .split(/\s+/)
    .slice(1)
    .map((s) => Number.parseInt(s, 10))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Ends every process of a run that is still alive, by its environment marker, through the
 * environment's own `exec` (so it works over SSH and in containers).
 */
export async function huntEscapedProcesses(
  ops: Pick<Operations, "exec" | "platform">,
  runId: string,
  options: { cwd: string; graceMs: number; timeoutMs?: number },
): Promise<EscapeHuntResult> {
  if (ops.platform === "win32") {
    return { supported: false, found: [], remaining: [], note: "no escape hunt on Windows environments" };
  }
  const chunks: Uint8Array[] = [];
  try {
    const result = await ops.exec(escapeHuntScript(runId, options.graceMs), {
      shell: "sh",
      cwd: options.cwd,
      timeoutMs: options.timeoutMs ?? options.graceMs + 10_000,
      onChunk: (chunk) => {
        if (chunk.stream === "stdout") chunks.push(chunk.bytes);
      },
    });
    const text = Buffer.concat(chunks).toString("utf8");
    if (text.includes("noproc")) {
      return { supported: false, found: [], remaining: [], note: "no /proc in the environment" };
    }
    const lines = text.split("\n");
    const foundLine = lines.find((l) => l.startsWith("found"));
    const remainingLine = lines.find((l) => l.startsWith("remaining"));
    if (result.status !== "completed" || remainingLine === undefined) {
      return {
        supported: false,
        found: parsePids(foundLine),
        remaining: [],
        note: `escape hunt did not finish (${result.status})`,
      };
    }
    return { supported: true, found: parsePids(foundLine), remaining: parsePids(remainingLine) };
  } catch (error) {
    return {
      supported: false,
      found: [],
      remaining: [],
      note: `escape hunt failed: ${(error as Error).message}`,
    };
  }
}
