import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { findMarked } from "../src/process-tree.js";
import { tempDir } from "./helpers.js";

/** Called with each path the code under test reads through node:fs/promises (reads still go to disk). */
const onRead = vi.hoisted(() => ({ current: (_path: string, _read: Promise<unknown>) => {} }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const readFile = ((...args: Parameters<typeof real.readFile>) => {
    const read = real.readFile(...args);
    onRead.current(String(args[0]), read);
    return read;
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
      let firstRead: Promise<unknown> | undefined;
      onRead.current = (path, read) => {
        if (path === `/proc/${pid}/environ` && firstRead === undefined) {
          firstRead = read.then((environ) => {
            expect((environ as Buffer).length).toBe(0);
            writeFileSync(gate, "");
          });
        }
      };
      const found = await findMarked({ pgid: process.pid, known: new Set(), marker });
      await firstRead;
      expect(found).toEqual([pid]);
    } finally {
      onRead.current = () => {};
      child.kill("SIGKILL");
    }
  });
});
