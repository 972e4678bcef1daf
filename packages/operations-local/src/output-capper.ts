import { randomBytes } from "node:crypto";
import { access, open, stat } from "node:fs/promises";
import {
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  type OutputCut,
  outputCutMarker,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
  toOperationError,
} from "@tackle/operations";
import { endWithin } from "./spawner/end-within.js";
import type { SpawnedProcess, Spawner, StdioSlot } from "./spawner/spawner.js";

/** Longest wait for the capper after the command's tree is gone (a process that left it may hold the pipe). */
const CAPPER_WAIT_MS = 2000;

/**
 * The fast path under an output budget on POSIX: the command's stdout and stderr are one pipe
 * into a `sh` running `OUTPUT_CAPPER_SCRIPT`, as over SSH and in a container, so no byte of the
 * output passes through this process (`yes` through the budget costs what `yes | head -c` does,
 * not a read and a write per chunk in Node). {@link finish} appends the tail after the command.
 */
export class OutputCapper {
  private readonly exited: Promise<void>;

  private constructor(
    private readonly process: SpawnedProcess,
    private readonly spawner: Spawner,
    private readonly path: string,
    private readonly limit: number,
    private readonly prefix: string,
    private readonly sizeBefore: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.exited = new Promise((resolve) => {
      process.once("exit", () => resolve());
    });
  }

  /** Creates the file (0600) when missing and starts the capper on it. */
  static async start(
    path: string,
    limit: number,
    env: NodeJS.ProcessEnv,
    spawner: Spawner,
  ): Promise<OutputCapper> {
    let sizeBefore: number;
    try {
      const handle = await open(path, "a", 0o600);
      sizeBefore = (await handle.stat()).size;
      await handle.close();
    } catch (error) {
      throw toOperationError(error, { operation: "exec", path });
    }
    const prefix = `${path}.tackle-tail-${randomBytes(6).toString("hex")}`;
    let child: SpawnedProcess;
    try {
      child = await spawner.spawn({
        file: "sh",
        args: [
          "-c",
          OUTPUT_CAPPER_SCRIPT,
          "capper",
          path,
          String(outputHeadBytes(limit)),
          String(outputTailBytes(limit)),
          prefix,
        ],
        env,
        // A capper that dies early breaks the command's pipe (SIGPIPE), as a full disk would.
        stdio: ["hold", "ignore", "ignore"],
      });
    } catch (error) {
      throw toOperationError(error, { operation: "exec" });
    }
    return new OutputCapper(child, spawner, path, limit, prefix, sizeBefore, env);
  }

  /** What to give the command as stdout and stderr: the capper's input pipe. */
  get input(): StdioSlot {
    return { heldBy: this.process };
  }

  /** Closes the spawner's end of the pipe once the command holds its own. */
  releaseInput(): void {
    this.spawner.releaseHeld(this.process);
  }

  /**
   * After the command's tree is gone: waits for the capper (killed after a bounded wait), then
   * appends the marker and the tail (`OUTPUT_ASSEMBLE_SCRIPT`). Resolves with the bytes of
   * output the command printed and the cut, if any; never rejects.
   */
  async finish(): Promise<{ outputBytes: number; cut?: OutputCut }> {
    await endWithin(this.process, this.exited, CAPPER_WAIT_MS);
    const [droppedText = "-", sizeText = ""] = (await this.assemble()).trim().split(" ");
    const dropped = droppedText === "-" ? 0 : Number(droppedText) || 0;
    const size = Number(sizeText) || this.sizeBefore;
    const cut: OutputCut | undefined =
      dropped > 0
        ? {
            headBytes: outputHeadBytes(this.limit),
            droppedBytes: dropped,
            tailBytes: outputTailBytes(this.limit),
          }
        : undefined;
    const marker = cut ? outputCutMarker(this.limit, dropped).length : 0;
    return { outputBytes: size - this.sizeBefore - marker + dropped, ...(cut ? { cut } : {}) };
  }

  /**
   * Runs `OUTPUT_ASSEMBLE_SCRIPT`, or answers as it would without a process when the output
   * never went past the head (the capper then made no tail pieces, so no `PREFIX.n`): the usual
   * short output costs no third process per command (each spawn blocks this process for a time
   * that grows with its size).
   */
  private async assemble(): Promise<string> {
    try {
      await access(`${this.prefix}.n`);
    } catch {
      try {
        return `- ${(await stat(this.path)).size}`;
      } catch {
        return "";
      }
    }
    const args = [
      "-c",
      OUTPUT_ASSEMBLE_SCRIPT,
      "assemble",
      this.path,
      String(outputTailBytes(this.limit)),
      this.prefix,
      outputCutMarkerFormat(this.limit),
    ];
    return outputOf(this.spawner, { file: "sh", args, env: this.env, stdio: ["ignore", "pipe", "ignore"] });
  }
}

/** What a short process prints on stdout; empty when it fails. */
async function outputOf(spawner: Spawner, request: Parameters<Spawner["spawn"]>[0]): Promise<string> {
  let child: SpawnedProcess;
  try {
    child = await spawner.spawn(request);
  } catch {
    return "";
  }
  let text = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (piece: string) => {
    text += piece;
  });
  const code = await new Promise<number | null>((resolve) =>
    child.once("close", (exitCode) => resolve(exitCode)),
  );
  return code === 0 && !spawner.lost(child) ? text : "";
}
