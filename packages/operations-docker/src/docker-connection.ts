import type { Duplex } from "node:stream";
import type { DockerTlsOptions, SshEngineTarget } from "./engine-endpoint.js";

/**
 * How to reach the Docker engine. Without it, as the docker CLI: `DOCKER_HOST` (with
 * `DOCKER_TLS_VERIFY` / `DOCKER_CERT_PATH`), else the current docker context (`DOCKER_CONTEXT`
 * or `currentContext` in `~/.docker/config.json`), else `/var/run/docker.sock`.
 *
 * Kept apart from the dockerode client so the published types never name dockerode's.
 *
 * An `ssh://` engine is reached through `dial`, a stream to the engine's socket on the remote
 * host: `@tackle/operations-ssh`'s `openUnixSocket` makes one over a verified SSH connection.
 *
 * @example
 * ```ts
 * { socketPath: "/run/user/1000/docker.sock" }
 * { host: "tcp://127.0.0.1:2376", tls: { ca, cert, key } }
 * { host: "ssh://me@build", dial: (target) => ssh.openUnixSocket(target.socketPath) }
 * { dial } // DOCKER_HOST / the docker context decide; dial serves them when they say ssh://
 * ```
 */
export type DockerConnection =
  | { socketPath: string }
  | {
      /** `unix:///path`, `tcp://host:port`, `ssh://[user@]host[:port][/socket]`, `http(s)://host:port`. Default: the environment's choice. */
      host?: string;
      /** Where `host` came from, for messages (default "docker option"; the tackle CLI says "--docker-host"). */
      source?: string;
      /** TLS for a `tcp://` host (default: from `DOCKER_TLS_VERIFY` / `DOCKER_CERT_PATH`). */
      tls?: DockerTlsOptions;
      /** Opens a stream to the engine of an `ssh://` endpoint (needed for `ssh://`, unused otherwise). */
      dial?: (target: SshEngineTarget) => Promise<Duplex>;
    };
