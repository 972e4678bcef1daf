import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Duplex } from "node:stream";
import Docker from "dockerode";
import type { DockerConnection } from "./docker-connection.js";
import { type EngineEndpoint, resolveEngineEndpoint, type SshEngineTarget } from "./engine-endpoint.js";
import { DockerOperationError, type EngineDescription, engineUnreachable } from "./engine-error.js";

/**
 * An http.Agent whose connections are streams from `dial` (each HTTP request, including an
 * exec's hijacked stream, gets its own). A failure to dial becomes `engine_unreachable` naming
 * the endpoint, with the dialer's own error (for example an SSH refusal) as its cause.
 */
class DialAgent extends HttpAgent {
  constructor(
    private readonly dial: () => Promise<Duplex>,
    private readonly endpoint: EngineEndpoint,
  ) {
    super({ keepAlive: false });
  }

  override createConnection(
    _options: unknown,
    callback: (error: Error | null, stream?: Duplex) => void,
  ): undefined {
    this.dial().then(
      (stream) => callback(null, withSocketMethods(stream)),
      (error: unknown) =>
        callback(
          engineUnreachable(
            { url: this.endpoint.url, source: this.endpoint.source },
            (error as Error)?.message?.replace(/\.$/, "") ?? String(error),
            {
              cause: error,
            },
          ),
        ),
    );
    return undefined;
  }
}

/** node:http calls a few net.Socket methods on its connection; a plain stream gets no-op ones. */
function withSocketMethods(stream: Duplex): Duplex {
  const socket = stream as Duplex & Record<string, unknown>;
  for (const name of ["setTimeout", "setNoDelay", "setKeepAlive", "ref", "unref"]) {
    if (typeof socket[name] !== "function") socket[name] = () => socket;
  }
  return stream;
}

/** A dockerode client for a resolved endpoint. */
function clientFor(
  endpoint: EngineEndpoint,
  dial: ((target: SshEngineTarget) => Promise<Duplex>) | undefined,
): Docker {
  switch (endpoint.kind) {
    case "unix":
      return new Docker({ socketPath: endpoint.socketPath });
    case "tcp": {
      if (!endpoint.tls) return new Docker({ host: endpoint.host, port: endpoint.port, protocol: "http" });
      const { ca, cert, key, verify = true } = endpoint.tls;
      const material = {
        ...(ca !== undefined ? { ca: Buffer.from(ca) } : {}),
        ...(cert !== undefined ? { cert: Buffer.from(cert) } : {}),
        ...(key !== undefined ? { key: Buffer.from(key) } : {}),
      };
      return new Docker({
        host: endpoint.host,
        port: endpoint.port,
        protocol: "https",
        ...material,
        // Without verification (DOCKER_TLS without _VERIFY) the certificate is not checked.
        agent: new HttpsAgent({ ...material, rejectUnauthorized: verify }),
      } as Docker.DockerOptions);
    }
    case "ssh": {
      if (!dial) {
        throw new DockerOperationError(
          "engine_config",
          `The Docker engine at ${endpoint.url} (${endpoint.source}) is reached over SSH, which needs a stream to its socket: pass docker: { dial } (for example @tackle/operations-ssh's openUnixSocket). The tackle CLI does this itself.`,
          { endpoint: { url: endpoint.url, source: endpoint.source } },
        );
      }
      const target: SshEngineTarget = {
        username: endpoint.username,
        host: endpoint.host,
        port: endpoint.port,
        socketPath: endpoint.socketPath,
      };
      return new Docker({
        host: "localhost",
        protocol: "http",
        agent: new DialAgent(() => dial(target), endpoint),
      } as Docker.DockerOptions);
    }
  }
}

/**
 * A dockerode client for `connection`, and the engine's URL and where it was chosen, for
 * messages (never its TLS material: errors carry this).
 */
export function connectEngine(connection: DockerConnection | undefined): {
  docker: Docker;
  endpoint: EngineDescription;
} {
  if (connection && "socketPath" in connection) {
    const endpoint: EngineEndpoint = {
      kind: "unix",
      socketPath: connection.socketPath,
      url: `unix://${connection.socketPath}`,
      source: "docker option",
    };
    return {
      docker: clientFor(endpoint, undefined),
      endpoint: { url: endpoint.url, source: endpoint.source },
    };
  }
  const endpoint = resolveEngineEndpoint(
    connection?.host !== undefined
      ? {
          host: connection.host,
          ...(connection.source ? { source: connection.source } : {}),
          ...(connection.tls ? { tls: connection.tls } : {}),
        }
      : undefined,
  );
  return {
    docker: clientFor(endpoint, connection?.dial),
    endpoint: { url: endpoint.url, source: endpoint.source },
  };
}
