import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { findMarked } from "../src/process-tree.js";
import { tempDir } from "./helpers.js";

/**
 * Sees each read the code under test makes through node:fs/promises (reads still go to disk) and
 * may hold its answer back: the code gets what `onRead` returns, or the read itself.
 */
const onRead = vi.hoisted(() => ({
  current: (_path: string, _read: Promise<unknown>): Promise<unknown> | undefined => undefined,
}));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const readFile = ((...args: Parameters<typeof real.readFile>) => {
    const read = real.readFile(...args);
    return onRead.current(String(args[0]), read) ?? read;
  }) as typeof real.readFile;
  return { ...real, default: { ...real, readFile }, readFile };
});

describe.runIf(process.platform === "linux")("the marker scan and execve", () => {
  it("finds a marked process caught between two programs, while its environment reads empty", async () => {
    // During execve the kernel reports an empty environment for a moment: a `setsid sleep` hunted
    // at that instant was missed. Here the moment is held open: the shell runs with an empty
    // environment until the gate file exists, then execs a program carrying the marker. The gate
    // is opened right after the scan's first read of that environment.
    const cwd = await tempDir();
    const gate = join(cwd, "gate");
    const marker = `TACKLE_EXEC_ID=${"e".repeat(24)}`;
    const child = spawn(
      "/usr/bin/env",
      [
        "-i",
        "/bin/sh",
        "-c",
        `while [ ! -e '${gate}' ]; do :; done; exec /usr/bin/env ${marker} /bin/sleep 60`,
      ],
      { stdio: "ignore" },
    );
    try {
      const pid = child.pid!;
      // Until it is the shell spinning with an empty environment, it is still env (or node's fork).
      while (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "sh") {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(readFileSync(`/proc/${pid}/environ`).length).toBe(0);
      let firstRead: Buffer | undefined;
      onRead.current = (path, read) => {
        if (path !== `/proc/${pid}/environ` || firstRead !== undefined) return undefined;
        // The first read saw the empty environment: open the gate, and answer the scan only once
        // the shell has moved on to the marked program (however long a loaded machine takes).
        return read.then(async (environ) => {
          firstRead = environ as Buffer;
          writeFileSync(gate, "");
          while (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sh") {
            await new Promise((resolve) => setImmediate(resolve));
          }
          return environ;
        });
      };
      const found = await findMarked({ pgid: process.pid, known: new Set(), marker });
      expect(firstRead?.length).toBe(0);
      expect(found).toEqual([pid]);
    } finally {
      onRead.current = () => undefined;
      child.kill("SIGKILL");
    }
  });
});
