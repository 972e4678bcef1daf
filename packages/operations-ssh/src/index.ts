export { isSshConnectionError, SshConnectionError, type SshFailureReason } from "./errors.js";
export { fingerprintOf, type HostKeyProblem, type HostKeyVerification } from "./host-key.js";
export type { SshOperationsOptions } from "./options.js";
export { createSshOperations, SSH_DEFAULTS, type SshOperations } from "./ssh-operations.js";
