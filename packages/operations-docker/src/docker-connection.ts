/**
 * How to reach the Docker engine. Without it: `DOCKER_HOST` when set, else `/var/run/docker.sock`.
 * Kept apart from the dockerode client so the published types never name dockerode's.
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
