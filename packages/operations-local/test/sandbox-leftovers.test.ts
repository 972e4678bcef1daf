import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";

const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

// A sandboxed call leaves nothing in the host's temp dir: not on a normal end, a timeout, an
// abort, nor with the allow-list proxy. The temp dir is one of the test's own (TMPDIR, which
// os.tmpdir() reads on every call), so other processes of the machine cannot blur the count,
// and the PATH is one no other call used, so this process checks the sandbox anew (the check is
// where a per-process directory would be made).
describe.runIf(supported)("sandboxed calls leave nothing in the temp dir", () => {
  const savedTmpdir = process.env.TMPDIR;
  let dir: string;
  let temp: string;
  let workspace: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-sandbox-leftovers-")));
    temp = join(dir, "tmp");
    workspace = join(dir, "ws");
    await mkdir(temp);
    await mkdir(workspace);
    process.env.TMPDIR = temp;
  });
  afterAll(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    await rm(dir, { recursive: true, force: true });
  });

  it("normal end, timeout, abort and an allow list: the temp dir stays empty", async () => {
    expect(tmpdir()).toBe(temp);
    const ops = createLocalOperations({
      env: { ...process.env, PATH: `${process.env.PATH}:/nonexistent-${process.pid}-${Date.now()}` },
      sandbox: { writable: [workspace] },
    });
    try {
      expect(await readdir(temp)).toEqual([]);
      const done = await ops.exec("echo hi", { shell: "bash", cwd: workspace });
      expect(done).toMatchObject({ status: "completed", sandbox: { mechanism: "bubblewrap" } });
      const timedOut = await ops.exec("sleep 30", { shell: "bash", cwd: workspace, timeoutMs: 300 });
      expect(timedOut.status).toBe("timed-out");
      const abort = new AbortController();
      const cancelled = await ops.exec("echo started; sleep 30", {
        shell: "bash",
        cwd: workspace,
        signal: abort.signal,
        onChunk: () => abort.abort(),
      });
      expect(cancelled.status).toBe("cancelled");
      const proxied = await ops.exec("true", {
        shell: "bash",
        cwd: workspace,
        sandbox: { writable: [workspace], network: { allow: ["registry.npmjs.org"] } },
      });
      expect(proxied.sandbox?.network).toBe("allow-list");
      expect(await readdir(temp)).toEqual([]);
    } finally {
      await ops.dispose?.();
    }
  }, 60_000);
});
