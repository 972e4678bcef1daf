import { randomBytes } from "node:crypto";
import {
  type ExecOptions,
  type ExecResult,
  type OutputCut,
  outputCutMarker,
  outputHeadBytes,
  outputTailBytes,
  throwIfAborted,
} from "@tackle/operations";
import { effectiveSandbox } from "@tackle/operations/adapter";
import { RemoteCommand, type SshExecConfig } from "./command-channel.js";
import { raceLost, type Session, type SshConnection } from "./connection.js";
import { buildAssembleCommand, buildExecCommand } from "./exec-script.js";
import { runRemote } from "./remote-command.js";
import { remoteSandbox } from "./sandbox.js";
import { checkRemotePath } from "./sftp-call.js";

/**
 * `exec` over SSH: one exec channel per command, wrapped so the remote command runs in its own
 * process group (the wrapper reports the group id on a control line) with stdin on /dev/null.
 * Timeout and abort end the group through a second channel: SIGTERM, SIGKILL after the grace,
 * then a confirmation that nothing of the group runs.
 */
export async function execRemote(
  connection: SshConnection,
  command: string,
  options: ExecOptions,
  config: SshExecConfig,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  checkRemotePath(options.cwd, "exec");
  if (options.outputPath !== undefined) checkRemotePath(options.outputPath, "exec");
  const started = Date.now();
  const session = await connection.session(options.signal, "exec");
  const sandboxOptions = effectiveSandbox(options.sandbox, config.sandbox);
  // Asked for and unavailable on that host rejects here (not_supported): never an unsandboxed run.
  const sandbox = sandboxOptions
    ? await raceLost(
        remoteSandbox(session, sandboxOptions, { cwd: options.cwd, home: options.env?.HOME }),
        session,
        "exec",
      )
    : undefined;
  const release = await connection.slots.acquire(options.signal);
  try {
    const direct = options.outputPath !== undefined && options.streamChunks === false;
    const limited = options.outputPath !== undefined && options.outputLimitBytes !== undefined;
    const sizeBefore = direct || limited ? await remoteSize(session, options.outputPath as string) : 0;
    const marker = randomBytes(12).toString("hex");
    const run = await raceLost(
      session.exec(
        buildExecCommand(
          command,
          options,
          marker,
          options.killGraceMs ?? config.killGraceMs,
          sandbox?.prefix,
        ),
        (channel) => new RemoteCommand(session, channel, options, config, marker, sandbox?.report),
      ),
      session,
      "exec",
    );
    let outcome = await run.finished;
    if (outcome.status === "unknown" && session.isLost) {
      // Its processes may still run; the next connection ends them (by marker: the group id may
      // belong to someone else by then).
      connection.leftovers.addCommand(marker, outcome.cleanup.pid ?? 0);
    }
    if (limited && !session.isLost) {
      // The capper is over (the call waited for it, or ended it at the bound): finish the file.
      outcome = await finishCapped(session, options, marker, sizeBefore, outcome);
    } else if (direct && !session.isLost) {
      // One remote fd for both streams keeps their order but loses the split: report the growth.
      const appended = (await remoteSize(session, options.outputPath as string)) - sizeBefore;
      outcome = { ...outcome, stdoutBytes: appended };
    }
    return { ...outcome, elapsedMs: Date.now() - started };
  } finally {
    release();
  }
}

/**
 * Appends the marker and the kept tail of a capped output (`OUTPUT_ASSEMBLE_SCRIPT`) and puts
 * the cut, if any, in the outcome. Not streaming, the output's size is the file's growth with
 * the marker taken out and the dropped bytes put back.
 */
async function finishCapped(
  session: Session,
  options: ExecOptions,
  marker: string,
  sizeBefore: number,
  outcome: Omit<ExecResult, "elapsedMs">,
): Promise<Omit<ExecResult, "elapsedMs">> {
  const limit = options.outputLimitBytes as number;
  let dropped = 0;
  let size = sizeBefore;
  try {
    const result = await runRemote(
      session,
      buildAssembleCommand(options.outputPath as string, limit, marker),
    );
    const [droppedText = "-", sizeText = ""] = result.stdout.trim().split(" ");
    dropped = droppedText === "-" ? 0 : Number(droppedText);
    size = Number(sizeText);
  } catch {
    // The file keeps its head; the result still counts.
  }
  const cut: OutputCut | undefined =
    dropped > 0
      ? { headBytes: outputHeadBytes(limit), droppedBytes: dropped, tailBytes: outputTailBytes(limit) }
      : undefined;
  const outputBytes = size - sizeBefore - (cut ? outputCutMarker(limit, dropped).length : 0) + dropped;
  return {
    ...outcome,
    ...(options.streamChunks === false ? { stdoutBytes: outputBytes, stderrBytes: 0 } : {}),
    ...(cut ? { outputCut: cut } : {}),
  };
}

async function remoteSize(session: Session, path: string): Promise<number> {
  const sftp = await raceLost(session.sftp(), session, "exec");
  return await new Promise((resolve) => sftp.stat(path, (error, stats) => resolve(error ? 0 : stats.size)));
}
