import Docker from "dockerode";
import type { DockerConnection } from "./docker-connection.js";

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
