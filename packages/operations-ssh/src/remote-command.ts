import { raceLost, type Session } from "./connection.js";

/** What a short helper command printed and how it ended. */
export interface RemoteCommandResult {
  exitCode: number | null;
  signal: string | undefined;
  stdout: string;
  stderr: string;
}

/**
 * Runs a short helper command (kill script, `rm -rf`, probes) on its own exec channel and
 * collects its output. Helpers take a helper slot, never a command slot: they must run even when
 * every command slot is held by a command they are meant to stop. Rejects with
 * `connection_lost` if the connection drops first.
 */
export async function runRemote(session: Session, command: string): Promise<RemoteCommandResult> {
  const release = await session.helperSlots.acquire(undefined);
  try {
    return await runHelper(session, command);
  } finally {
    release();
  }
}

async function runHelper(session: Session, command: string): Promise<RemoteCommandResult> {
  const done = await session.exec(command, (channel) => {
    const finished = new Promise<RemoteCommandResult>((resolve) => {
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let exitCode: number | null = null;
      let signal: string | undefined;
      channel.on("data", (bytes: Buffer) => stdout.push(bytes));
      channel.stderr.on("data", (bytes: Buffer) => stderr.push(bytes));
      channel.on("exit", (code: number | null, signalName?: string) => {
        exitCode = code;
        signal = signalName;
      });
      channel.on("close", () =>
        resolve({
          exitCode,
          signal,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8"),
        }),
      );
    });
    channel.end();
    return { finished };
  });
  return raceLost(done.finished, session, "exec");
}
