import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

// What the conformance suite and the escape corpus do not pin down about the sandbox over SSH:
// the probe (once per connection, on the remote PATH), and the refusals (no bubblewrap there,
// an allow list) that run nothing.
const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

describe.runIf(supported)("the sandbox over SSH", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-ssh-sandbox-")));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs bubblewrap found on the remote PATH, probed once per connection", async () => {
    // A bwrap first on the sessions' PATH that logs each start, then runs the real one.
    const log = join(dir, "bwrap.log");
    const wrapper = join(dir, "bwrap");
    await writeFile(wrapper, `#!/bin/sh\necho run >> '${log}'\nexec /usr/bin/bwrap "$@"\n`);
    await chmod(wrapper, 0o755);
    const server = await startSshServer({ tools: [wrapper] });
    const ops = createSshOperations({ ...server.connectOptions, sandbox: { writable: [dir] } });
    try {
      for (let i = 0; i < 3; i++) {
        const result = await ops.exec("echo $$", { shell: "sh", cwd: dir });
        expect(result.sandbox).toMatchObject({ mechanism: "bubblewrap", network: "off", seccomp: true });
        expect(result.cleanup.pid).toBe(2);
      }
      // The probe's one start, then one per command.
      expect((await readFile(log, "utf8")).split("\n").filter(Boolean)).toHaveLength(4);
    } finally {
      await ops.dispose();
      await server.stop();
    }
  });

  describe("a remote host without bubblewrap", () => {
    let server: TestSshServer;
    beforeAll(async () => {
      // The sessions' PATH: every program of /usr/bin and /usr/sbin but bwrap.
      const bin = join(dir, "no-bwrap-bin");
      await mkdir(bin);
      for (const from of ["/usr/bin", "/usr/sbin"]) {
        for (const name of await readdir(from)) {
          if (name === "bwrap" || existsSync(join(bin, name))) continue;
          await symlink(join(from, name), join(bin, name));
        }
      }
      server = await startSshServer({ env: { PATH: bin } });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("refuses a sandboxed call with not_supported naming bubblewrap; nothing runs", async () => {
      const ops = createSshOperations(server.connectOptions);
      const marker = join(dir, "ran-unsandboxed");
      try {
        const error = await ops
          .exec(`touch '${marker}'`, { shell: "sh", cwd: dir, sandbox: { writable: [dir] } })
          .catch((e: unknown) => e);
        expect(isOperationError(error, "not_supported")).toBe(true);
        expect((error as Error).message).toMatch(
          /sandbox unavailable on the remote host: bubblewrap \(bwrap\) is not installed/,
        );
        expect(existsSync(marker)).toBe(false);
        // The same connection runs unsandboxed calls as before.
        const plain = await ops.exec("echo plain", { shell: "sh", cwd: dir });
        expect(plain.status).toBe("completed");
      } finally {
        await ops.dispose();
      }
    });
  });

  it("refuses a network allow list with not_supported; nothing runs", async () => {
    const server = await startSshServer();
    const ops = createSshOperations(server.connectOptions);
    const marker = join(dir, "ran-with-allow-list");
    try {
      const error = await ops
        .exec(`touch '${marker}'`, {
          shell: "sh",
          cwd: dir,
          sandbox: { writable: [dir], network: { allow: ["registry.npmjs.org"] } },
        })
        .catch((e: unknown) => e);
      expect(isOperationError(error, "not_supported")).toBe(true);
      expect((error as Error).message).toMatch(/allow list/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await ops.dispose();
      await server.stop();
    }
  });
});
