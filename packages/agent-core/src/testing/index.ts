/**
 * `@tackle/agent-core/testing`: test doubles for hosts and tool authors. `createFauxModel`
 * streams scripted replies (text, thinking, tool calls, or a function of the context) through the
 * real loop, with real deltas, so a test or a demo runs the agent without a provider.
 */
export type {
  FauxBlock,
  FauxModel,
  FauxModelOptions,
  FauxReply,
  FauxReplyMessage,
  FauxToolCall,
} from "../faux-model.js";
export { createFauxModel, fauxText, fauxThinking, fauxToolCall } from "../faux-model.js";
