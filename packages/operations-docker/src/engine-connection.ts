import Docker from "dockerode";

/**
 * How to reach the Docker engine. Without it: `DOCKER_HOST` when set, else `/var/run/docker.sock`.
 *
 * @example
 * ```ts
 * { socketPath: "/run/user/1000/docker.sock" }
 * { host: "tcp://127.0.0.1:2375" }
 * ```
 */
export type DockerConnection =
  | { socketPath: string }
  | {
      /** `unix:///path`, `tcp://host:port`, `http://host:port` or `https://host:port`. */
      host: string;
    };

/** A dockerode client for `connection`, and a readable name of the endpoint for messages. */
export function connectEngine(connection: DockerConnection | undefined): {
  docker: Docker;
  endpoint: string;
} {
  const target =
    connection ??
    (process.env.DOCKER_HOST ? { host: process.env.DOCKER_HOST } : { socketPath: "/var/run/docker.sock" });
  if ("socketPath" in target) {
    return { docker: new Docker({ socketPath: target.socketPath }), endpoint: `unix://${target.socketPath}` };
  }
  const url = new URL(target.host);
  if (url.protocol === "unix:") {
    return { docker: new Docker({ socketPath: url.pathname }), endpoint: target.host };
  }
  const protocol = url.protocol === "https:" ? "https" : "http";
  const port = url.port ? Number(url.port) : protocol === "https" ? 2376 : 2375;
  return { docker: new Docker({ host: url.hostname, port, protocol }), endpoint: target.host };
}
