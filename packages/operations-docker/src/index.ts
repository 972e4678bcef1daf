export type { DockerConnection } from "./docker-connection.js";
export { createDockerOperations, type DockerOperationsOptions } from "./docker-operations.js";
export { type DockerFailureReason, DockerOperationError } from "./engine-error.js";
export {
  type SessionContainer,
  type SessionContainerOptions,
  startSessionContainer,
} from "./session-container.js";
