export { isSshConnectionError, SshConnectionError, type SshFailureReason } from "./errors.js";
export { fingerprintOf, type HostKeyProblem, type HostKeyVerification } from "./host-key.js";
export type { SshOperationsOptions } from "./options.js";
export { createSshOperations, readPrivateKey, SSH_DEFAULTS, type SshOperations } from "./ssh-operations.js";
