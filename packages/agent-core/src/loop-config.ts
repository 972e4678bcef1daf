import type { ToolCallAuditOptions } from "./audit/call-audit.js";
import type { AfterToolCallHook, BeforeToolCallHook } from "./hooks.js";
import type { Message } from "./messages.js";
import type { Model, StreamFn } from "./model.js";

/** How the loop talks to the model and treats tool calls. */
export interface AgentLoopConfig {
  model: Model;
  streamFn: StreamFn;
  /**
   * `parallel` (default): a batch of tool calls is prepared in order, then runs together.
   * `sequential`: one call at a time. A batch holding any `sequential` tool runs sequentially.
   */
  toolExecution?: "parallel" | "sequential";
  /** Runs before each tool call (after validation): may block it, replace its arguments or mark it terminating. */
  beforeToolCall?: BeforeToolCallHook;
  /** Runs after each executed tool call: may override content, details, isError, terminate. */
  afterToolCall?: AfterToolCallHook;
  /**
   * After an abort, how long (ms) to keep waiting for a running tool or `afterToolCall` hook that
   * has not stopped yet (default `ABORT_GRACE_MS`, 5 s; `Infinity` always waits). A call cut
   * off this way gets an `aborted` result saying it may still be running. `beforeToolCall` is not
   * waited for at all: the call will not run anyway.
   */
  abortGraceMs?: number;
  /**
   * Records every tool call in an audit trail (intent with `requestedBy` default `model`, the
   * validation and hook decisions, the end). Give the tool context's sink so the tools' own
   * events join the same records.
   */
  audit?: ToolCallAuditOptions;
  /** Messages to inject at the next turn boundary (after the current tool batch). Called once per turn. */
  getSteeringMessages?: () => Message[] | Promise<Message[]>;
  /** Messages to continue with when the run would otherwise end. */
  getFollowUpMessages?: () => Message[] | Promise<Message[]>;
}
