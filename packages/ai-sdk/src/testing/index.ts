export type {
  ProviderServer,
  Reply,
  Script,
  ScriptedCall,
  ScriptedTurn,
  SeenRequest,
} from "./provider-server.js";
export {
  anthropicHang,
  anthropicReply,
  anthropicStreamError,
  openaiError,
  openaiReply,
  startProviderServer,
} from "./provider-server.js";
export type { ResponsesTurn } from "./responses-reply.js";
export { openaiResponsesReply } from "./responses-reply.js";
