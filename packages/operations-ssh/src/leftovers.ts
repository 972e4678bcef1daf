import { isTempFileName } from "@tackle/operations";
import type { LeftoverRegistry, Session } from "./connection.js";
import { buildMarkerKillCommand } from "./exec-script.js";
import { runRemote } from "./remote-command.js";
import { call } from "./sftp-call.js";

/**
 * What a dropped connection left on the remote host, to be cleaned up through the next one: the
 * temp files of writes it cut off (created, never renamed or removed) and the commands whose end
 * it kept the adapter from seeing (`exec` resolved `unknown`). Their processes may still run:
 * on reconnect every process carrying such a command's marker is ended, and the temp files are
 * removed by the paths they were created at.
 */
export class Leftovers implements LeftoverRegistry {
  private readonly tempFiles = new Set<string>();
  /** Markers (`TACKLE_EXEC_ID` values) of commands left running, with their process group. */
  private readonly commands = new Map<string, number>();
  private cleaning: Promise<void> = Promise.resolve();

  constructor(private readonly killGraceMs: number) {}

  /** A write created this temp file; until `removeTempFile`, a reconnect removes it. */
  addTempFile(path: string): void {
    this.tempFiles.add(path);
  }

  /** The temp file was renamed or removed by its write. */
  removeTempFile(path: string): void {
    this.tempFiles.delete(path);
  }

  /** A command whose connection dropped before its end was seen (`marker` finds all its processes). */
  addCommand(marker: string, pgid: number): void {
    this.commands.set(marker, pgid);
  }

  /** What is still to clean up, for diagnostics and tests. */
  pending(): { tempFiles: string[]; commands: { marker: string; pgid: number }[] } {
    return {
      tempFiles: [...this.tempFiles],
      commands: [...this.commands].map(([marker, pgid]) => ({ marker, pgid })),
    };
  }

  /**
   * Cleans up through a new session, in the background of the call that reconnected. What fails
   * because this connection dropped too stays for the next one; anything else is given up.
   */
  cleanUp(session: Session): void {
    const tempFiles = [...this.tempFiles];
    const commands = [...this.commands];
    if (tempFiles.length === 0 && commands.length === 0) return;
    for (const path of tempFiles) this.tempFiles.delete(path);
    for (const [marker] of commands) this.commands.delete(marker);
    const previous = this.cleaning;
    this.cleaning = (async () => {
      await previous;
      await Promise.all([
        ...commands.map(async ([marker, pgid]) => {
          try {
            await runRemote(session, buildMarkerKillCommand(marker, this.killGraceMs));
          } catch {
            if (session.isLost) this.commands.set(marker, pgid);
          }
        }),
        this.removeTempFiles(session, tempFiles),
      ]);
    })();
  }

  /** Resolves when every cleanup started so far has finished. */
  settled(): Promise<void> {
    return this.cleaning;
  }

  private async removeTempFiles(session: Session, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    try {
      const sftp = await session.sftp();
      await Promise.all(
        paths.map(async (path) => {
          // Only ever a temp file of ours: the name is checked again before anything is removed.
          if (!isTempFileName(path.slice(path.lastIndexOf("/") + 1))) return;
          await call((cb) => sftp.unlink(path, cb)).catch(() => {
            if (session.isLost) this.tempFiles.add(path);
          });
        }),
      );
    } catch {
      if (session.isLost) for (const path of paths) this.tempFiles.add(path);
    }
  }
}
