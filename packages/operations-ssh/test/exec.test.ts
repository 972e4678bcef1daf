import { userInfo } from "node:os";
import { isOperationError } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { livePidsOfGroup } from "./support/processes.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/** What the conformance suite does not pin down about the SSH exec wrapper. */
let server: TestSshServer;
let ops: SshOperations;

beforeAll(async () => {
  server = await startSshServer();
  ops = createSshOperations(server.connectOptions);
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

async function codeOf(action: Promise<unknown>): Promise<string | undefined> {
  try {
    await action;
    return undefined;
  } catch (error) {
    return isOperationError(error) ? error.code : `untyped: ${String(error)}`;
  }
}

describe("connect", () => {
  it("learns the remote home directory", async () => {
    await ops.connect();
    expect(ops.homeDir).toBe(userInfo().homedir);
    expect(ops.id).toBe(`ssh://${server.username}@127.0.0.1:${server.port}`);
    // What audit records say of where a call ran.
    expect(ops.environment).toEqual({
      kind: "ssh",
      host: "127.0.0.1",
      port: server.port,
      user: server.username,
    });
  });
});

describe("exec over ssh", () => {
  it("runs the command as its own process group leader and reports that group", async () => {
    const output: string[] = [];
    // Field 5 of /proc/PID/stat is the process group (no `ps` needed on the host).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    const result = await ops.exec('read -r l </proc/$$/stat; set -- ${l##*) }; echo "$3"', {
      shell: "sh",
      cwd: "/",
      onChunk: (chunk) => output.push(new TextDecoder().decode(chunk.bytes)),
    });
    expect(Number(output.join("").trim())).toBe(result.cleanup.pid);
  });

  it("never shows the control line in the output", async () => {
    const stderr: string[] = [];
    await ops.exec("echo visible >&2", {
      shell: "bash",
      cwd: "/",
      onChunk: (chunk) => stderr.push(new TextDecoder().decode(chunk.bytes)),
    });
    expect(stderr.join("")).toBe("visible\n");
  });

  it("a cwd that is a file is not_directory; a missing shell is not_supported", async () => {
    await ops.writeFile(`${server.dir}/plain.txt`, "x");
    expect(await codeOf(ops.exec("true", { shell: "sh", cwd: `${server.dir}/plain.txt` }))).toBe(
      "not_directory",
    );
    // The test sshd runs on this machine, which has no pwsh: asking for it is not_supported.
    expect(await codeOf(ops.exec("Write-Output 1", { shell: "pwsh", cwd: "/" }))).toBe("not_supported");
  });

  it("a relative cwd is invalid_argument, before anything runs", async () => {
    expect(await codeOf(ops.exec("true", { shell: "sh", cwd: "relative/dir" }))).toBe("invalid_argument");
  });

  it("an abort before the call rejects with aborted and starts nothing", async () => {
    expect(await codeOf(ops.exec("true", { shell: "sh", cwd: "/", signal: AbortSignal.abort() }))).toBe(
      "aborted",
    );
  });

  it("a process that left the group (setsid) is found by its marker and ended when the command ends", async () => {
    let out = "";
    const result = await ops.exec(
      // The command ends only once the escapee has left the group and ignores TERM (the ready
      // file): otherwise the group reap could end it first and the sweep would have nothing to do.
      'r=/tmp/escape-ready-$$; (setsid sh -c \'trap "" TERM; touch "$1"; exec sleep 60\' sh "$r" >/dev/null 2>&1 </dev/null & echo $!); ' +
        'while [ ! -e "$r" ]; do sleep 0.01; done; rm -f "$r"; echo started',
      {
        shell: "sh",
        cwd: "/",
        killGraceMs: 200,
        onChunk: (chunk) => {
          out += new TextDecoder().decode(chunk.bytes);
        },
      },
    );
    expect(result.status).toBe("completed");
    // It ignored SIGTERM, so it took SIGKILL; both are reported, and that it is gone is confirmed.
    expect(result.cleanup).toMatchObject({
      escapesChecked: true,
      termSent: true,
      killSent: true,
      confirmed: true,
    });
    const escaped = Number(out.split("\n")[0]);
    expect(escaped).toBeGreaterThan(1);
    // It was its own group leader (setsid): the test sshd runs here, so look at it directly.
    expect(await livePidsOfGroup(escaped)).toEqual([]);
    const plain = await ops.exec("true", { shell: "sh", cwd: "/" });
    expect(plain.cleanup).toMatchObject({ escapesChecked: true, termSent: false, confirmed: true });
  });

  it("a timed-out tree with a setsid-free grandchild is gone afterwards", async () => {
    const result = await ops.exec("sh -c 'sleep 60' & sleep 60", { shell: "sh", cwd: "/", timeoutMs: 200 });
    expect(result.status).toBe("timed-out");
    expect(result.signal).toBe("SIGTERM");
    expect(await livePidsOfGroup(result.cleanup.pid as number)).toEqual([]);
  });
});
