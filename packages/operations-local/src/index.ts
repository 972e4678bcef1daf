export { deniedSyscallNames } from "@tackle/operations/adapter";
export {
  createLocalOperations,
  LOCAL_EXEC_DEFAULTS,
  type LocalOperationsOptions,
} from "./local-operations.js";
export { allowedBy as sandboxAllows } from "./sandbox/network-proxy.js";
export { SANDBOX_UNAVAILABLE } from "./sandbox/sandbox-runtime.js";
export { bundledRgPath } from "./search.js";
export { SPAWN_HELPER_RSS_BYTES } from "./spawner/select-spawner.js";
export type { SpawnerMode } from "./spawner/spawner.js";
