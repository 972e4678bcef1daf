/**
 * `@tackle/shell-policy`: the command policy of Tackle's bash and powershell tools, usable on its
 * own. Rules written for each shell's syntax, on a real parser of each (tree-sitter bash and
 * PowerShell grammars, shipped here), decide allow / ask / deny for a command before it runs.
 */
export { evaluateCommandPolicy, findInputReaders } from "./engine.js";
export type {
  InputReader,
  PolicyConfig,
  PolicyDecision,
  PolicyHit,
  PolicyRuleId,
  PolicyScope,
  PolicyVerdict,
} from "./types.js";
export { DEFAULT_DECISIONS, DEFAULT_WRITABLE_PATHS, SANDBOX_CONTAINED_RULES } from "./types.js";
