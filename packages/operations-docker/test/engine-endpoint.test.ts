import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerOperationError, resolveEngineEndpoint } from "../src/index.js";

let config: string;
beforeAll(() => {
  config = mkdtempSync(join(tmpdir(), "tackle-docker-config-"));
});
afterAll(() => rmSync(config, { recursive: true, force: true }));

/** Writes a docker context the way `docker context create` stores it. */
function writeContext(name: string, host: string, tls?: { ca: string; cert: string; key: string }): void {
  const id = createHash("sha256").update(name).digest("hex");
  mkdirSync(join(config, "contexts", "meta", id), { recursive: true });
  writeFileSync(
    join(config, "contexts", "meta", id, "meta.json"),
    JSON.stringify({ Name: name, Metadata: {}, Endpoints: { docker: { Host: host, SkipTLSVerify: false } } }),
  );
  if (tls) {
    const dir = join(config, "contexts", "tls", id, "docker");
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(tls)) writeFileSync(join(dir, `${file}.pem`), text);
  }
}

function failure(action: () => unknown): DockerOperationError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DockerOperationError);
    return error as DockerOperationError;
  }
  throw new Error("expected a DockerOperationError");
}

describe("resolveEngineEndpoint", () => {
  it("defaults to /var/run/docker.sock", () => {
    expect(resolveEngineEndpoint(undefined, { DOCKER_CONFIG: config })).toMatchObject({
      kind: "unix",
      socketPath: "/var/run/docker.sock",
      source: "default",
    });
  });

  it("reads DOCKER_HOST: unix, tcp (2375 plain, 2376 with TLS) and ssh with the remote default socket", () => {
    expect(resolveEngineEndpoint(undefined, { DOCKER_HOST: "unix:///run/x.sock" })).toMatchObject({
      kind: "unix",
      socketPath: "/run/x.sock",
      url: "unix:///run/x.sock",
      source: "DOCKER_HOST",
    });
    expect(resolveEngineEndpoint(undefined, { DOCKER_HOST: "tcp://10.0.0.5" })).toMatchObject({
      kind: "tcp",
      host: "10.0.0.5",
      port: 2375,
      tls: undefined,
    });
    expect(resolveEngineEndpoint(undefined, { DOCKER_HOST: "ssh://me@build" })).toMatchObject({
      kind: "ssh",
      username: "me",
      host: "build",
      port: 22,
      socketPath: "/var/run/docker.sock",
      url: "ssh://me@build:22/var/run/docker.sock",
    });
    expect(
      resolveEngineEndpoint(undefined, { DOCKER_HOST: "ssh://build:2222/run/user/1000/docker.sock" }),
    ).toMatchObject({
      kind: "ssh",
      username: undefined,
      port: 2222,
      socketPath: "/run/user/1000/docker.sock",
    });
  });

  it("takes TLS from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH; missing files are engine_config naming the file", () => {
    const certs = join(config, "certs");
    mkdirSync(certs, { recursive: true });
    for (const file of ["ca", "cert", "key"]) writeFileSync(join(certs, `${file}.pem`), `${file} pem`);
    const endpoint = resolveEngineEndpoint(undefined, {
      DOCKER_HOST: "tcp://10.0.0.5",
      DOCKER_TLS_VERIFY: "1",
      DOCKER_CERT_PATH: certs,
    });
    expect(endpoint).toMatchObject({ kind: "tcp", port: 2376, url: "tcp://10.0.0.5:2376" });
    expect(endpoint.kind === "tcp" && endpoint.tls?.verify).toBe(true);
    expect(endpoint.kind === "tcp" && Buffer.from(endpoint.tls?.ca ?? "").toString()).toBe("ca pem");
    const missing = failure(() =>
      resolveEngineEndpoint(undefined, {
        DOCKER_HOST: "tcp://10.0.0.5",
        DOCKER_TLS_VERIFY: "1",
        DOCKER_CERT_PATH: join(config, "nowhere"),
      }),
    );
    expect(missing.reason).toBe("engine_config");
    expect(missing.code).toBe("invalid_argument");
    expect(missing.message).toContain(join(config, "nowhere", "ca.pem"));
  });

  it("an explicit host wins over DOCKER_HOST; DOCKER_HOST wins over DOCKER_CONTEXT", () => {
    writeContext("elsewhere", "unix:///from/context.sock");
    expect(
      resolveEngineEndpoint(
        { host: "unix:///explicit.sock", source: "--docker-host" },
        {
          DOCKER_HOST: "unix:///env.sock",
        },
      ),
    ).toMatchObject({ socketPath: "/explicit.sock", source: "--docker-host" });
    expect(
      resolveEngineEndpoint(undefined, {
        DOCKER_HOST: "unix:///env.sock",
        DOCKER_CONTEXT: "elsewhere",
        DOCKER_CONFIG: config,
      }),
    ).toMatchObject({ socketPath: "/env.sock" });
  });

  it("honours DOCKER_CONTEXT and the config's currentContext, with the context's TLS material", () => {
    writeContext("remote-tls", "tcp://10.0.0.9:2376", { ca: "ctx ca", cert: "ctx cert", key: "ctx key" });
    const fromEnv = resolveEngineEndpoint(undefined, { DOCKER_CONTEXT: "remote-tls", DOCKER_CONFIG: config });
    expect(fromEnv).toMatchObject({
      kind: "tcp",
      host: "10.0.0.9",
      port: 2376,
      source: 'Docker context "remote-tls"',
    });
    expect(fromEnv.kind === "tcp" && Buffer.from(fromEnv.tls?.cert ?? "").toString()).toBe("ctx cert");
    writeFileSync(join(config, "config.json"), JSON.stringify({ currentContext: "elsewhere" }));
    try {
      expect(resolveEngineEndpoint(undefined, { DOCKER_CONFIG: config })).toMatchObject({
        socketPath: "/from/context.sock",
        source: 'Docker context "elsewhere"',
      });
      // The "default" context is the default socket.
      expect(
        resolveEngineEndpoint(undefined, { DOCKER_CONFIG: config, DOCKER_CONTEXT: "default" }),
      ).toMatchObject({
        source: "default",
      });
    } finally {
      rmSync(join(config, "config.json"));
    }
  });

  it("a context that does not exist, or a malformed URL, is engine_config with the next step", () => {
    const context = failure(() =>
      resolveEngineEndpoint(undefined, { DOCKER_CONTEXT: "nope", DOCKER_CONFIG: config }),
    );
    expect(context.reason).toBe("engine_config");
    expect(context.message).toContain('Docker context "nope" (from DOCKER_CONTEXT) does not exist');
    expect(context.message).toContain("docker context ls");
    const scheme = failure(() =>
      resolveEngineEndpoint(undefined, { DOCKER_HOST: "npipe:////./pipe/docker" }),
    );
    expect(scheme.message).toContain("Use unix://, tcp:// or ssh://");
    const garbage = failure(() => resolveEngineEndpoint({ host: "not a url" }));
    expect(garbage.message).toContain('docker option "not a url" is not an engine URL');
  });
});
