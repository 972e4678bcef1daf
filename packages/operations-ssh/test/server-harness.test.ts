import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const harness = fileURLToPath(new URL("./support/ssh-server.mjs", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (this machine's pid 1 does not reap) holds no port and runs nothing: gone.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

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
      expect(alive(pid)).toBe(true);
      child.kill("SIGKILL");
      const deadline = Date.now() + 15_000;
      while ((alive(pid) || existsSync(dir)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(alive(pid)).toBe(false);
      expect(existsSync(dir)).toBe(false);
    } finally {
      // Should the watcher fail, this test still ends what it started, by pid.
      if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
