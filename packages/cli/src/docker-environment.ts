import type { EnvSpec } from "./env-url.js";
import type { EnvironmentOptions, RemoteEnvironment } from "./environment.js";
import { importAdapter } from "./import-adapter.js";

type DockerSpec = Extract<EnvSpec, { kind: "docker" }>;

/** Opens `docker://container[/path]` on the engine DOCKER_HOST (or --docker-host) names. */
export async function openDockerEnvironment(
  spec: DockerSpec,
  _options: EnvironmentOptions,
): Promise<RemoteEnvironment> {
  const docker = await importAdapter<typeof import("@tackle/operations-docker")>(
    "@tackle/operations-docker",
    "docker",
  );
  const operations = await docker.createDockerOperations({ container: spec.container });
  return {
    operations,
    base: spec.path ?? operations.homeDir ?? "/",
    dispose: async () => operations.dispose?.(),
  };
}
