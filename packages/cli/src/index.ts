export type { EnvSpec } from "./env-url.js";
export { parseEnvUrl } from "./env-url.js";
export type { EnvironmentOptions, OpenEnvironment } from "./environment.js";
export { openEnvironment } from "./environment.js";
export type { CliIO } from "./io.js";
export { main } from "./main.js";
export type { AgentScript, ScriptReply } from "./script.js";
export { loadScript, toFauxReplies } from "./script.js";
export {
  EnvironmentError,
  EXIT_ENVIRONMENT,
  EXIT_OK,
  EXIT_TOOL_ERROR,
  EXIT_USAGE,
  UsageError,
} from "./usage-error.js";
