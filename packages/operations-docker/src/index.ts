export type { DockerConnection } from "./docker-connection.js";
export {
  createDockerOperations,
  type DockerOperations,
  type DockerOperationsOptions,
} from "./docker-operations.js";
export {
  DEFAULT_ENGINE_SOCKET,
  type DockerTlsOptions,
  type EngineEndpoint,
  resolveEngineEndpoint,
  type SshEngineTarget,
} from "./engine-endpoint.js";
export {
  type DockerFailureReason,
  DockerOperationError,
  type EngineDescription,
} from "./engine-error.js";
export {
  type SessionContainer,
  type SessionContainerOptions,
  startSessionContainer,
} from "./session-container.js";
