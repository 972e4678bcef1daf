import os from "node:os";
import type { Duplex } from "node:stream";
import type { DockerOperationError, SshEngineTarget } from "@tackle/operations-docker";
import type { SshOperations } from "@tackle/operations-ssh";
import type { EnvSpec } from "./env-url.js";
import type { EnvironmentOptions, RemoteEnvironment } from "./environment-options.js";
import { importAdapter } from "./import-adapter.js";
import { createCliSshOperations, describeSshFailure, loadSshAdapter } from "./ssh-environment.js";
import { EnvironmentError, UsageError } from "./usage-error.js";

type DockerModule = typeof import("@tackle/operations-docker");
type DockerSpec = Extract<EnvSpec, { kind: "docker" }>;

/** How a CLI user picks another engine, for every "unreachable" message. */
const CHOOSE_ENGINE = "choose another with --docker-host URL or DOCKER_HOST (or DOCKER_CONTEXT)";

/**
 * The engine over SSH: one SSH adapter (made from the same flags as `--env ssh://`, so host key,
 * key, passphrase and timeout apply), connected on the first request; each request to the
 * engine is a stream to its socket on that host.
 */
function sshTunnel(options: EnvironmentOptions): {
  dial: (target: SshEngineTarget) => Promise<Duplex>;
  dispose: () => Promise<void>;
} {
  let opened: Promise<{ ssh: Awaited<ReturnType<typeof loadSshAdapter>>; ops: SshOperations }> | undefined;
  return {
    async dial(target) {
      opened ??= (async () => {
        const ssh = await loadSshAdapter();
        const username = target.username ?? os.userInfo().username;
        const ops = await createCliSshOperations(
          ssh,
          { host: target.host, port: target.port, username },
          options,
        );
        return { ssh, ops };
      })();
      const { ops } = await opened;
      return ops.openUnixSocket(target.socketPath);
    },
    async dispose() {
      const tunnel = await opened?.catch(() => undefined);
      await tunnel?.ops.dispose();
    },
  };
}

/** The CLI's words for a Docker failure: what happened, with the engine, and the next step in its flags. */
async function describeDockerFailure(docker: DockerModule, error: unknown): Promise<unknown> {
  if (!(error instanceof docker.DockerOperationError)) return error;
  const failure = error as DockerOperationError;
  const cause = { cause: error };
  if (failure.reason === "engine_config")
    return new UsageError(`${failure.message} Or choose the engine with --docker-host URL.`);
  if (failure.reason !== "engine_unreachable") return new EnvironmentError(failure.message, cause);
  const endpoint = failure.endpoint;
  const source = endpoint?.source === "default" ? "the default socket" : `from ${endpoint?.source}`;
  const at = endpoint ? `${endpoint.url} (${source})` : "its endpoint";
  const inner = failure.cause;
  if (endpoint?.url.startsWith("ssh://")) {
    const ssh = await loadSshAdapter();
    const sshFailure = describeSshFailure(ssh, inner);
    if (sshFailure)
      return new EnvironmentError(
        `Cannot reach the Docker engine at ${at} over SSH. ${sshFailure.message}`,
        cause,
      );
    if (inner instanceof UsageError) return inner;
    return new EnvironmentError(
      `Docker engine unreachable at ${at}: nothing on the SSH host answers at the engine's socket. Check that the engine runs there, name its socket in the URL (ssh://user@host/path/to/docker.sock), or ${CHOOSE_ENGINE}.`,
      cause,
    );
  }
  const details = [source, failure.errno].filter(Boolean).join(", ");
  return new EnvironmentError(
    `Docker engine unreachable at ${endpoint?.url ?? "its endpoint"} (${details}). Start the engine, or ${CHOOSE_ENGINE}.`,
    cause,
  );
}

/** Opens `docker://container[/path]` on the engine `--docker-host`, DOCKER_HOST or the docker context names. */
export async function openDockerEnvironment(
  spec: DockerSpec,
  options: EnvironmentOptions,
): Promise<RemoteEnvironment> {
  const docker = await importAdapter<DockerModule>("@tackle/operations-docker", "docker");
  const tunnel = sshTunnel(options);
  try {
    const operations = docker.createDockerOperations({
      container: spec.container,
      docker: {
        ...(options.dockerHost !== undefined ? { host: options.dockerHost, source: "--docker-host" } : {}),
        dial: tunnel.dial,
      },
    });
    // Connect now: a missing or stopped container fails here with its fix, and `search` is
    // decided (ripgrep in the container or the tools' portable walk) before any tool runs.
    try {
      await operations.connect();
    } catch (error) {
      await operations.dispose();
      throw error;
    }
    return {
      operations,
      base: spec.path ?? operations.homeDir ?? "/",
      dispose: async () => {
        await operations.dispose();
        await tunnel.dispose();
      },
    };
  } catch (error) {
    await tunnel.dispose().catch(() => undefined);
    throw await describeDockerFailure(docker, error);
  }
}
