import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/** Remote ripgrep details the conformance suite cannot see: the process is stopped, not drained. */
let server: TestSshServer;
let ops: SshOperations;

beforeAll(async () => {
  server = await startSshServer({ tools: [rgPath] });
  ops = createSshOperations({
    host: server.host,
    port: server.port,
    username: server.username,
    privateKey: server.privateKey,
    hostKey: { knownHostsPath: server.knownHostsPath },
  });
  await ops.connect();
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

describe("remote ripgrep", () => {
  it("is found on the remote PATH by the connect probe", () => {
    expect(ops.search).toBeDefined();
  });

  it("maxMatches stops the remote rg: an endless input is not drained", async () => {
    const fifo = join(server.dir, "endless.fifo");
    execFileSync("mkfifo", [fifo]);
    // Enough matches to flush rg's output buffer, then non-matching lines forever: rg writes
    // nothing more, so closing its channel alone would leave it reading. The writer only ends
    // (SIGPIPE) when the remote rg is killed.
    const writer = spawn("sh", ["-c", `{ yes MATCH | head -n 100; exec yes nothing; } > '${fifo}'`], {
      stdio: "ignore",
    });
    const writerEnded = new Promise<NodeJS.Signals | null>((resolve) =>
      writer.once("exit", (_code, signal) => resolve(signal)),
    );
    try {
      const matches: unknown[] = [];
      for await (const event of ops.search!.grep({ pattern: "MATCH", path: fifo, maxMatches: 3 }))
        matches.push(event);
      expect(matches).toHaveLength(3);
      expect(await writerEnded).toBe("SIGPIPE");
    } finally {
      if (writer.exitCode === null && writer.signalCode === null) writer.kill("SIGKILL");
    }
  });

  it("files() with a limit stops early the same way", async () => {
    const fifoDir = join(server.dir, "many");
    execFileSync("mkdir", ["-p", fifoDir]);
    execFileSync("sh", ["-c", `cd '${fifoDir}' && for i in $(seq 1 200); do : > "f$i.txt"; done`]);
    const listed: string[] = [];
    for await (const path of ops.search!.files({ path: fifoDir, limit: 5 })) listed.push(path);
    expect(listed).toHaveLength(5);
    for (const path of listed) expect(path).toMatch(/^f\d+\.txt$/);
  });
});
