/**
 * `ExecOptions.onEnded` on the local adapter: called once, after the command and what it left in
 * its group are gone (their writes are on disk), before `exec` resolves, with the cleanup the
 * result then reports; never for a command that could not start.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExecCleanup } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { isAlive, tempDir } from "./helpers.js";

const ops = createLocalOperations();

describe("local exec: onEnded", () => {
  it("comes once the command's processes are gone, before exec resolves, with its cleanup", async () => {
    const cwd = await tempDir();
    const output = join(cwd, "out.log");
    const seen: { cleanup: ExecCleanup; written: string; leftover: boolean; resolved: boolean }[] = [];
    let resolved = false;
    // A child left running in the group, and the command's last write just before it exits.
    const command = "sleep 60 & echo $! > child.pid; echo last > last.txt";
    const result = await ops
      .exec(command, {
        shell: "sh",
        cwd,
        outputPath: output,
        outputLimitBytes: 1024 * 1024,
        streamChunks: false,
        onEnded: (cleanup) => {
          const child = Number(readFileSync(join(cwd, "child.pid"), "utf8"));
          seen.push({
            cleanup: { ...cleanup },
            written: existsSync(join(cwd, "last.txt")) ? readFileSync(join(cwd, "last.txt"), "utf8") : "",
            leftover: isAlive(child),
            resolved,
          });
        },
      })
      .finally(() => {
        resolved = true;
      });
    expect(result.status).toBe("completed");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ written: "last\n", leftover: false, resolved: false });
    expect(seen[0]?.cleanup).toEqual(result.cleanup);
    expect(result.cleanup).toMatchObject({ confirmed: true, termSent: true });
  });

  it("is not called for a command that could not start, and a throwing one is ignored", async () => {
    const cwd = await tempDir();
    const ended: ExecCleanup[] = [];
    await expect(
      ops.exec("true", { shell: "sh", cwd: join(cwd, "missing"), onEnded: (c) => ended.push(c) }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(ended).toEqual([]);
    const result = await ops.exec("echo ok", {
      shell: "sh",
      cwd,
      onEnded: () => {
        throw new Error("a faulty consumer");
      },
    });
    expect(result).toMatchObject({ status: "completed", stdoutBytes: 3 });
  });
});
