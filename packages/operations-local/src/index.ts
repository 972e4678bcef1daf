export {
  createLocalOperations,
  LOCAL_EXEC_DEFAULTS,
  type LocalOperationsOptions,
} from "./local-operations.js";
export { bundledRgPath } from "./search.js";
