import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ExecResult } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { isAlive, tempDir } from "./helpers.js";

/**
 * Status `unknown` means the adapter could not confirm that the tree is gone. SIGKILL cannot be
 * ignored, so the real way this happens is a process in the command's group that the adapter may
 * not signal (EPERM), as after `sudo`. To build one without sudo: the adapter runs as `nobody`
 * (a child process on the built dist), and the command starts a setuid-root copy of `setpriv`
 * that makes itself fully root (real uid too) and runs `sleep`. That sleep stays in the
 * command's process group, and `nobody` may not signal it. Skipped unless the suite runs as root
 * on a temp directory whose mount honours setuid bits.
 */
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const NOBODY = 65_534;
const SETPRIV = "/usr/bin/setpriv";

/** True when setuid bits take effect below `dir` (its mount has no `nosuid`), from /proc/self/mountinfo. */
function suidAllowed(dir: string): boolean {
  let best: { point: string; options: string } | undefined;
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const fields = line.split(" ");
    const point = fields[4]?.replace(/\\040/g, " ");
    const options = fields[5];
    if (point === undefined || options === undefined) continue;
    const inside = point === "/" || dir === point || dir.startsWith(`${point}/`);
    if (inside && (best === undefined || point.length > best.point.length)) best = { point, options };
  }
  return best !== undefined && !best.options.split(",").includes("nosuid");
}

const canBuild =
  process.getuid?.() === 0 &&
  existsSync(SETPRIV) &&
  existsSync("/proc/self/mountinfo") &&
  suidAllowed(tmpdir());

const probe = `
const { createLocalOperations } = await import(process.argv[1]);
const ops = createLocalOperations();
let stdout = "";
const result = await ops.exec(process.argv[3], {
  shell: "sh", cwd: process.argv[2], timeoutMs: 300, killGraceMs: 100,
  onChunk: (chunk) => { if (chunk.stream === "stdout") stdout += new TextDecoder().decode(chunk.bytes); },
});
process.stdout.write(JSON.stringify({ result, stdout }));
`;

function runAsNobody(dir: string, command: string): Promise<{ result: ExecResult; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", probe, pathToFileURL(dist).href, dir, command],
      { uid: NOBODY, gid: NOBODY },
      (error, out) => (error ? reject(error) : resolve(JSON.parse(out))),
    );
  });
}

describe("local exec: cleanup that cannot be confirmed", () => {
  it.skipIf(!canBuild)(
    "a process the adapter may not signal keeps the status unknown, with the group id and a note (skipped unless root, setpriv and a suid-capable temp mount)",
    async () => {
      expect(existsSync(dist), "build the package first (pnpm --filter @tackle/operations-local build)").toBe(
        true,
      );
      const dir = await tempDir();
      await chmod(dir, 0o755);
      const rootRunner = join(dir, "setpriv-root");
      await copyFile(SETPRIV, rootRunner);
      await chmod(rootRunner, 0o4755);
      let leftover: number | undefined;
      try {
        const { result, stdout } = await runAsNobody(
          dir,
          `${rootRunner} --reuid=0 --regid=0 --clear-groups sleep 30 & echo $!; wait`,
        );
        leftover = Number(stdout.trim());
        expect(Number.isInteger(leftover) && leftover > 0).toBe(true);
        expect(isAlive(leftover)).toBe(true);
        expect(result.status).toBe("unknown");
        expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: false });
        expect(result.cleanup.pid).toBeGreaterThan(0);
        expect(result.cleanup.note).toBe(`processes of group ${result.cleanup.pid} may still be running`);
      } finally {
        if (leftover !== undefined && leftover > 0 && isAlive(leftover)) process.kill(leftover, "SIGKILL");
      }
    },
  );
});
