import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { eventually } from "./support/processes.js";
import { isAlive } from "./support/ssh-server.mjs";

const harness = fileURLToPath(new URL("./support/ssh-server.mjs", import.meta.url));

describe("test sshd harness", () => {
  it("ends its sshd even when the test process is killed without stop()", async () => {
    const script = `const { startSshServer } = await import(${JSON.stringify(harness)});
      const server = await startSshServer();
      process.stdout.write(JSON.stringify({ pid: server.pid, dir: server.dir }) + "\\n");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\n")) resolve(text.split("\n")[0] as string);
      });
      child.once("exit", (code) => reject(new Error(`harness child exited ${code} before starting sshd`)));
    });
    const { pid, dir } = JSON.parse(line) as { pid: number; dir: string };
    try {
      expect(await isAlive(pid)).toBe(true);
      child.kill("SIGKILL");
      const gone = await eventually(
        async () => !(await isAlive(pid)) && !existsSync(dir),
        (done) => done,
        15_000,
      );
      expect(gone).toBe(true);
    } finally {
      // Should the watcher fail, this test still ends what it started, by pid.
      if (await isAlive(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
