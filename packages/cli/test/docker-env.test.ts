import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startSessionContainer } from "@tackle/operations-docker";
import {
  importMinimalImage,
  type PrivateEngine,
  startPrivateEngine,
} from "@tackle/operations-docker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The SSH adapter's own test server: a real sshd on 127.0.0.1, owned and stopped by this file.
import { startSshServer, type TestSshServer } from "../../operations-ssh/test/support/ssh-server.mjs";
import {
  artifactPathIn,
  EXIT,
  expectEnvironmentError,
  expectSixPiecesThroughTheCli,
  ls,
  type RunResult,
  tackle,
  tempDir,
} from "./helpers.js";

let engine: PrivateEngine;
let image: string;
let container: Awaited<ReturnType<typeof startSessionContainer>>;
let sshd: TestSshServer;
let scratch: { dir: string; cleanup: () => void };

beforeAll(async () => {
  scratch = tempDir();
  [engine, sshd] = await Promise.all([startPrivateEngine({ tls: true }), startSshServer()]);
  image = await importMinimalImage(engine);
  container = await startSessionContainer({ image, docker: { socketPath: engine.socketPath } });
  await container.mkdir("/work/demo/sub", { recursive: true });
  await container.writeFile("/work/demo/inside.txt", "inside the container\n");
}, 180_000);
afterAll(async () => {
  await container?.dispose();
  await engine?.stop();
  await sshd?.stop();
  scratch?.cleanup();
});

/** One Engine API call on the private engine's socket (to pause or stop a container from outside). */
function engineCall(method: string, apiPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath: engine.socketPath, method, path: apiPath }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end();
  });
}

/** An environment with no Docker settings of its own (no DOCKER_HOST, an empty docker config). */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    DOCKER_HOST: "",
    DOCKER_CONTEXT: "",
    DOCKER_TLS_VERIFY: "",
    DOCKER_CERT_PATH: "",
    DOCKER_CONFIG: path.join(scratch.dir, "empty-docker-config"),
    ...extra,
  };
}
const viaSocket = () => cleanEnv({ DOCKER_HOST: `unix://${engine.socketPath}` });
const url = (suffix = "/work/demo") => `docker://${container.containerId}${suffix}`;
const readInside = ["tool", "read", '{"path":"inside.txt"}'];

function expectReadWorked(result: RunResult) {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(EXIT.ok);
  expect(result.stdout).toContain("inside the container");
}

describe("tools inside the container", () => {
  it("runs read, grep and bash inside the container", async () => {
    expectReadWorked(await tackle([...readInside, "--env", url()], { env: viaSocket() }));
    const grep = await tackle(["tool", "grep", '{"pattern":"container"}', "--env", url()], {
      env: viaSocket(),
    });
    expect(grep.code).toBe(EXIT.ok);
    expect(grep.stdout).toContain("inside.txt");
    const bash = await tackle(["tool", "bash", '{"command":"cat /etc/hostname; pwd"}', "--env", url()], {
      env: viaSocket(),
    });
    expect(bash.code).toBe(EXIT.ok);
    expect(bash.stdout).toContain("/work/demo");
  });
});

describe("the audit trail inside the container", () => {
  it("records the six pieces of a bash and an edit as the library does, and names the container and engine", async () => {
    const environment = await expectSixPiecesThroughTheCli(["--env", url()], {
      env: viaSocket(),
      auditFile: path.join(scratch.dir, "audit-docker.jsonl"),
    });
    expect(environment).toMatchObject({
      kind: "docker",
      container: container.containerId,
      engine: `unix://${engine.socketPath}`,
    });
  });
});

describe("containers that cannot be used", () => {
  it("a missing container is named, with docker ps -a", async () => {
    const result = await ls(["--env", "docker://no-such-container"], {
      env: viaSocket(),
    });
    expectEnvironmentError(result);
    expect(result.stderr).toContain("No such container: no-such-container");
    expect(result.stderr).toContain("docker ps -a");
  });

  it("a paused container says to unpause it", async () => {
    expect(await engineCall("POST", `/containers/${container.containerId}/pause`)).toBe(204);
    try {
      const result = await tackle([...readInside, "--env", url()], { env: viaSocket() });
      expectEnvironmentError(result);
      expect(result.stderr).toContain(
        `Container ${container.containerId} is paused. Unpause it (docker unpause ${container.containerId})`,
      );
    } finally {
      expect(await engineCall("POST", `/containers/${container.containerId}/unpause`)).toBe(204);
    }
  });

  it("a stopped container says to start it", async () => {
    const stopped = await startSessionContainer({ image, docker: { socketPath: engine.socketPath } });
    try {
      expect(await engineCall("POST", `/containers/${stopped.containerId}/stop?t=0`)).toBe(204);
      const result = await ls(["--env", `docker://${stopped.containerId}`], {
        env: viaSocket(),
      });
      expectEnvironmentError(result);
      expect(result.stderr).toContain(`Start it (docker start ${stopped.containerId})`);
    } finally {
      await stopped.dispose();
    }
  });
});

describe("choosing the engine", () => {
  it("an unreachable engine is named with how to choose another", async () => {
    const missing = path.join(scratch.dir, "no-engine.sock");
    const result = await ls(["--env", url()], {
      env: cleanEnv({ DOCKER_HOST: `unix://${missing}` }),
    });
    expectEnvironmentError(result);
    expect(result.stderr).toContain(
      `Docker engine unreachable at unix://${missing} (from DOCKER_HOST, ENOENT)`,
    );
    expect(result.stderr).toContain("--docker-host URL or DOCKER_HOST");
    const byDefault = await ls(["--env", url()], { env: cleanEnv() });
    expectEnvironmentError(byDefault);
    expect(byDefault.stderr).toContain("unix:///var/run/docker.sock (the default socket, ENOENT)");
  });

  it("--docker-host wins over DOCKER_HOST", async () => {
    const result = await tackle(
      [...readInside, "--env", url(), "--docker-host", `unix://${engine.socketPath}`],
      {
        env: cleanEnv({ DOCKER_HOST: `unix://${path.join(scratch.dir, "elsewhere.sock")}` }),
      },
    );
    expectReadWorked(result);
  });

  it("a malformed --docker-host is a usage error", async () => {
    const result = await ls(["--env", url(), "--docker-host", "ftp://x"], {
      env: cleanEnv(),
    });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("Use unix://, tcp:// or ssh://");
  });

  it("tcp:// with TLS from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH", async () => {
    const tls = engine.tls!;
    const result = await tackle([...readInside, "--env", url()], {
      env: cleanEnv({
        DOCKER_HOST: tls.host,
        DOCKER_TLS_VERIFY: "1",
        DOCKER_CERT_PATH: tls.certificates.clientCertDir,
      }),
    });
    expectReadWorked(result);
  });

  it("DOCKER_CONTEXT names a context from the docker config; a missing one is a usage error", async () => {
    const config = path.join(scratch.dir, "docker-config");
    const write = (name: string, host: string, tlsFrom?: string) => {
      const id = createHash("sha256").update(name).digest("hex");
      fs.mkdirSync(path.join(config, "contexts", "meta", id), { recursive: true });
      fs.writeFileSync(
        path.join(config, "contexts", "meta", id, "meta.json"),
        JSON.stringify({
          Name: name,
          Metadata: {},
          Endpoints: { docker: { Host: host, SkipTLSVerify: false } },
        }),
      );
      if (tlsFrom)
        fs.cpSync(tlsFrom, path.join(config, "contexts", "tls", id, "docker"), { recursive: true });
    };
    write("private-socket", `unix://${engine.socketPath}`);
    write("private-tls", engine.tls!.host, engine.tls!.certificates.clientCertDir);
    for (const name of ["private-socket", "private-tls"]) {
      const result = await tackle([...readInside, "--env", url()], {
        env: cleanEnv({ DOCKER_CONFIG: config, DOCKER_CONTEXT: name }),
      });
      expectReadWorked(result);
    }
    fs.writeFileSync(path.join(config, "config.json"), JSON.stringify({ currentContext: "private-socket" }));
    expectReadWorked(
      await tackle([...readInside, "--env", url()], { env: cleanEnv({ DOCKER_CONFIG: config }) }),
    );
    const missing = await ls(["--env", url()], {
      env: cleanEnv({ DOCKER_CONFIG: config, DOCKER_CONTEXT: "nope" }),
    });
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('Docker context "nope" (from DOCKER_CONTEXT) does not exist');
    expect(missing.stderr).toContain("--docker-host URL");
  });
});

describe("the engine over ssh://", () => {
  const sshEngine = (socket = engine.socketPath) => `ssh://${sshd.username}@127.0.0.1:${sshd.port}${socket}`;
  const keys = () => ["--identity", sshd.privateKeyPath, "--known-hosts", sshd.knownHostsPath];

  it("DOCKER_HOST=ssh://user@host reaches the engine's socket on that host (path: the remote socket)", async () => {
    const result = await tackle([...readInside, "--env", url(), ...keys()], {
      env: cleanEnv({ DOCKER_HOST: sshEngine() }),
    });
    expectReadWorked(result);
    const bash = await tackle(["tool", "bash", '{"command":"pwd"}', "--env", url(), ...keys()], {
      env: cleanEnv({ DOCKER_HOST: sshEngine() }),
    });
    expect(bash.code).toBe(EXIT.ok);
    expect(bash.stdout).toContain("/work/demo");
  });

  it("--docker-host ssh://... works the same way", async () => {
    const result = await tackle([...readInside, "--env", url(), "--docker-host", sshEngine(), ...keys()], {
      env: cleanEnv(),
    });
    expectReadWorked(result);
  });

  it("a remote socket where no engine listens is named, with how to name another", async () => {
    const missing = path.join(scratch.dir, "remote-nothing.sock");
    const result = await ls(["--env", url(), ...keys()], {
      env: cleanEnv({ DOCKER_HOST: sshEngine(missing) }),
    });
    expectEnvironmentError(result);
    expect(result.stderr).toContain(`Docker engine unreachable at ${sshEngine(missing)} (from DOCKER_HOST)`);
    expect(result.stderr).toContain("ssh://user@host/path/to/docker.sock");
    expect(result.stderr).toContain("--docker-host");
  });

  it("an SSH refusal on the way to the engine is worded as for --env ssh:// (host key: --host-key)", async () => {
    const empty = path.join(scratch.dir, "known_hosts_empty");
    fs.writeFileSync(empty, "");
    const result = await ls(["--env", url(), "--identity", sshd.privateKeyPath, "--known-hosts", empty], {
      env: cleanEnv({ DOCKER_HOST: sshEngine() }),
    });
    expectEnvironmentError(result);
    expect(result.stderr).toContain("Cannot reach the Docker engine at ssh://");
    expect(result.stderr).toContain(`--host-key ${sshd.hostFingerprint}`);
  });
});

describe("the container's working directory and artifacts", () => {
  it("a relative --cwd is resolved inside the container; a missing one is named before any tool runs", async () => {
    const bash = await tackle(["tool", "bash", '{"command":"pwd"}', "--env", url(), "--cwd", "sub"], {
      env: viaSocket(),
    });
    expect(bash.code).toBe(EXIT.ok);
    expect(bash.stdout).toContain("/work/demo/sub");
    const missing = await tackle(["tool", "read", '{"path":"x"}', "--env", url("/work/gone")], {
      env: viaSocket(),
    });
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain(
      `The working directory /work/gone does not exist in docker://${container.containerId}`,
    );
  });

  it("a short bash output leaves no artifact behind in the container", async () => {
    const result = await tackle(
      ["tool", "bash", JSON.stringify({ command: "echo short" }), "--env", url(), "--json"],
      {
        env: viaSocket(),
      },
    );
    expect(result.code).toBe(EXIT.ok);
    const artifact = artifactPathIn(result.stdout);
    const check = await container.exec(`test -e '${path.posix.dirname(artifact)}'`, {
      shell: "sh",
      cwd: "/",
    });
    expect(check.exitCode).toBe(1);
  });
});
