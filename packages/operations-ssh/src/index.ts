export {
  isSshConnectionError,
  SshConnectionError,
  type SshEndpoint,
  type SshFailureReason,
} from "./errors.js";
export {
  fingerprintOf,
  type HostKeyProblem,
  type HostKeyVerification,
  type HostKeyWording,
  hostKeyMessage,
} from "./host-key.js";
export type { SshOperationsOptions } from "./options.js";
export { createSshOperations, SSH_DEFAULTS, type SshOperations } from "./ssh-operations.js";
