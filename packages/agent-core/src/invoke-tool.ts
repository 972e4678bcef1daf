import type { TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import {
  ABORT_GRACE_MS,
  type AbortDeadline,
  type AbortRaced,
  GAVE_UP,
  waitUnlessAborted,
} from "./abort-race.js";
import { findForbiddenKey, forbiddenKeyProblem, reasonOf, snapshotArguments } from "./argument-snapshot.js";
import {
  changedFields,
  recordCallEnd,
  recordValidation,
  startCallAudit,
  type ToolCallAuditOptions,
} from "./audit/call-audit.js";
import { type AuditRecorder, NO_AUDIT } from "./audit/recorder.js";
import { misspeltFieldProblems } from "./misspelt-fields.js";
import { normalizeArguments } from "./normalize-arguments.js";
import { boundText, shortenInput, wellFormed } from "./quote-input.js";
import type {
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  InvokeToolOutcome,
  ToolArguments,
  ToolDetails,
  ToolErrorCode,
  ToolOutcome,
} from "./tool.js";
import { type CoreErrorCode, isCoreErrorCode, isToolError } from "./tool-error.js";
import { type TypeCheck, TypeCompiler, Value } from "./typebox-runtime.js";
import {
  ARGUMENT_PROBLEMS_SHOWN,
  type ArgumentProblem,
  formatValidationMessage,
  summarizeValidationErrors,
  type ValidationSummary,
} from "./validation-message.js";

/** Options of {@link invokeTool}. */
export interface InvokeToolOptions {
  /** Aborts the tool; an aborted call returns an outcome with `errorCode: "aborted"`. */
  signal?: AbortSignal | undefined;
  /** Receives partial results while the tool runs. A throwing listener is ignored. */
  onUpdate?: AgentToolUpdateCallback | undefined;
  /** Id handed to `execute`; defaults to a fresh one. */
  toolCallId?: string;
  /**
   * How long to keep waiting for the tool after `signal` fires (ms, default
   * {@link ABORT_GRACE_MS}). A tool that stops in time reports its own result; one that does not
   * gets an `aborted` outcome saying it may still be running. `Infinity` waits however long.
   */
  abortGraceMs?: number | undefined;
  /**
   * Records the call in an audit trail (intent, validation, end); give the tool context's sink so
   * the tool's own events join the same record. Absent: nothing is recorded.
   */
  audit?: ToolCallAuditOptions;
}

/** Options of {@link executeTool}: those of {@link invokeTool} but the call id. */
export type ExecuteToolOptions = Omit<InvokeToolOptions, "toolCallId">;

/** Result of {@link prepareToolArguments}: validated arguments, or the error outcome to return instead. */
export type PreparedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; outcome: ToolOutcome<unknown, CoreErrorCode>; problems: ArgumentProblem[] };

/**
 * Runs one tool call the way every caller should (executor, CLI, MCP server): prepare ->
 * normalise -> validate -> execute -> map errors. Never throws or rejects.
 *
 * Typed from the tool: arguments the caller writes are checked against the tool's schema
 * (raw input typed `unknown` is accepted and checked at run time), a successful outcome's
 * `details` has the tool's details type, and a failure's `errorCode` is a core code or one the
 * tool declares (`ToolErrorCode<typeof tool>`). A `ToolError` whose code is neither is the tool
 * author's bug: it is reported as `execution_failed` with the tool's message, and
 * `details.undeclaredCode` names the code (see `AgentTool.errorCodes`).
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(readTool, { path: "a.ts", limit: 20 }, { signal });
 * if (outcome.isError) console.error(outcome.errorCode, outcome.content);
 * else console.log(outcome.details); // the read tool's details
 * const fromModel: unknown = JSON.parse(call.arguments);
 * await invokeTool(readTool, fromModel); // raw input: validated when it runs
 * ```
 */
export async function invokeTool<TTool extends AnyAgentTool, TArgs = unknown>(
  tool: TTool,
  rawArgs: ToolArguments<TTool, TArgs>,
  options: InvokeToolOptions = {},
): Promise<InvokeToolOutcome<ToolDetails<TTool>, ToolErrorCode<TTool>>> {
  type Outcome = InvokeToolOutcome<ToolDetails<TTool>, ToolErrorCode<TTool>>;
  try {
    const toolCallId = options.toolCallId ?? newToolCallId();
    if (options.audit === undefined) {
      const prepared = prepareToolArguments(tool, rawArgs);
      if (!prepared.ok) return prepared.outcome as Outcome;
      // executeTool sets errorCode on every failure and returns the tool's own details on success.
      return (await executeTool(tool, toolCallId, prepared.args, options)) as Outcome;
    }
    const startedAt = Date.now();
    const audit = startCallAudit(options.audit, {
      callId: toolCallId,
      tool: tool.name,
      args: rawArgs,
      source: "invoke",
    });
    const prepared = prepareToolArguments(tool, rawArgs, audit);
    const outcome = prepared.ok
      ? await executeTool(tool, toolCallId, prepared.args, options)
      : prepared.outcome;
    recordCallEnd(audit, outcome, startedAt, "invoke");
    return outcome as Outcome;
  } catch (error) {
    // Both halves promise not to throw; this keeps the promise if one of them breaks it.
    return errorOutcome(
      "execution_failed",
      `Tool ${safeName(tool)} failed unexpectedly: ${reasonOf(error)}.`,
    ) as Outcome;
  }
}

/**
 * The first half of {@link invokeTool}: a plain-data copy of the arguments (see
 * `snapshotArguments`), `prepareArguments`, lenient normalisation and TypeBox validation. Also
 * used to re-validate arguments a hook replaced. Must not throw: whatever the arguments hold
 * (getters or Proxies that throw, cycles, `__proto__` keys, a million items), the answer is an
 * `invalid_arguments` outcome, and its message stays short.
 */
export function prepareToolArguments(
  tool: AnyAgentTool,
  rawArgs: unknown,
  audit: AuditRecorder = NO_AUDIT,
): PreparedArguments {
  try {
    return prepare(tool, rawArgs, audit);
  } catch (error) {
    const problem: ArgumentProblem = {
      field: "arguments",
      expected: "plain data (JSON)",
      received: `arguments that could not be checked (${shortenInput(reasonOf(error), 60)})`,
      fix: "Send arguments as plain JSON data.",
    };
    return refused(tool, [problem], audit);
  }
}

function prepare(tool: AnyAgentTool, rawArgs: unknown, audit: AuditRecorder): PreparedArguments {
  const snapshot = snapshotArguments(rawArgs);
  if (!snapshot.ok) return refused(tool, [snapshot.problem], audit);
  let args: unknown = snapshot.value;
  if (tool.prepareArguments !== undefined) {
    try {
      args = tool.prepareArguments(snapshot.value);
    } catch (error) {
      // A refusal the tool words itself (see `AgentTool.prepareArguments`); any other throw breaks
      // the contract, so what was sent is validated instead.
      const problems = refusedProblems(error);
      if (problems !== undefined) return refused(tool, problems, audit);
      args = snapshot.value;
    }
  }
  const schema = tool.parameters as TSchema;
  // A tool with no arguments is often called with nothing at all.
  if ((args === undefined || args === null) && schema.type === "object") args = {};
  const normalized = normalizeArguments(schema, args);
  // Repairs parse JSON text (the whole arguments, a nested list), which can hold such keys again.
  const forbidden = findForbiddenKey(normalized);
  if (forbidden !== undefined)
    return refused(tool, [forbiddenKeyProblem(forbidden.field, forbidden.key)], audit);
  // Normalisation drops unknown keys; one that misspells a field the call left out changes the call.
  const misspelt = misspeltFieldProblems(schema, args);
  if (misspelt.length > 0) return refused(tool, misspelt.slice(0, ARGUMENT_PROBLEMS_SHOWN), audit);
  let summary: ValidationSummary;
  try {
    const checker = compiled(schema);
    if (checker.check(normalized)) {
      if (audit.enabled)
        recordValidation(audit, { ok: true, repaired: changedFields(snapshot.value, normalized) });
      return { ok: true, args: normalized as Record<string, unknown> };
    }
    summary = summarizeValidationErrors(checker.errors(normalized));
  } catch (error) {
    // A plain JSON Schema (no TypeBox kinds) cannot be checked; that is the tool author's bug, not the model's.
    const text = `Tool ${safeName(tool)} cannot check its arguments (${shortenInput(reasonOf(error))}): its parameters must be a TypeBox schema. Tell the user; do not retry.`;
    recordValidation(audit, { ok: false, code: "invalid_schema", problems: [] });
    return { ok: false, outcome: errorOutcome("invalid_schema", text), problems: [] };
  }
  return refused(tool, summary.problems, audit, summary);
}

/**
 * The problems of a `ToolError("invalid_arguments", …, { details: { problems } })` thrown by
 * `prepareArguments`; undefined for any other throw.
 */
function refusedProblems(error: unknown): ArgumentProblem[] | undefined {
  if (!isToolError(error, "invalid_arguments")) return undefined;
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems) || problems.length === 0) return undefined;
  const wellFormedProblem = (problem: unknown) =>
    typeof problem === "object" &&
    problem !== null &&
    ["field", "expected", "received", "fix"].every(
      (key) => typeof (problem as Record<string, unknown>)[key] === "string",
    );
  if (!problems.every(wellFormedProblem)) return undefined;
  return (problems as ArgumentProblem[]).slice(0, ARGUMENT_PROBLEMS_SHOWN);
}

/** The `invalid_arguments` answer for `problems` (the first of them; `summary` counts the rest). */
function refused(
  tool: AnyAgentTool,
  problems: ArgumentProblem[],
  audit: AuditRecorder,
  summary: ValidationSummary = { problems, more: 0, moreAtLeast: false },
): PreparedArguments {
  recordValidation(audit, { ok: false, code: "invalid_arguments", problems });
  const details: { problems: ArgumentProblem[]; moreProblems?: number } = { problems };
  if (summary.more > 0) details.moreProblems = summary.more;
  const outcome = errorOutcome(
    "invalid_arguments",
    formatValidationMessage(safeName(tool), summary),
    details,
  );
  return { ok: false, outcome, problems };
}

/** The tool's name for a message (a host's tool object is as untrusted as its arguments). */
function safeName(tool: AnyAgentTool): string {
  try {
    return shortenInput(String(tool.name), 60);
  } catch {
    return "(unnamed)";
  }
}

/**
 * The second half of {@link invokeTool}: runs `execute` with already validated arguments and
 * maps whatever it throws to an error outcome. Never throws or rejects.
 */
export function executeTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions = {},
): Promise<ToolOutcome> {
  return new Promise((resolve) => runTool(tool, toolCallId, args, options, undefined, resolve));
}

/**
 * {@link executeTool} for a call of a loop batch, in callback form: `done` gets the outcome,
 * once (not before `execute` has been called). The wait for the tool races the batch's shared
 * `deadline` (made from `options.signal` and `options.abortGraceMs`) instead of setting up a wait
 * of its own; it gives up at the same moment, since every call of a batch starts before the
 * abort. No promise of its own: a message of 1000 calls paid several per call in a chain of
 * async functions. `done` must not throw.
 */
export function executeBatchedTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions,
  deadline: AbortDeadline | undefined,
  done: (outcome: ToolOutcome) => void,
): void {
  runTool(tool, toolCallId, args, options, deadline, done);
}

function runTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions,
  deadline: AbortDeadline | undefined,
  done: (outcome: ToolOutcome) => void,
): void {
  const { signal, onUpdate } = options;
  if (signal?.aborted) {
    done(abortedOutcome(tool.name));
    return;
  }
  let gaveUp = false;
  const update =
    onUpdate === undefined
      ? undefined
      : (partial: AgentToolResult) => {
          // A tool the loop stopped waiting for must not report progress after its end event.
          if (gaveUp) return;
          try {
            onUpdate(partial);
          } catch {
            // A broken progress listener must not fail the tool.
          }
        };
  const graceMs = options.abortGraceMs ?? ABORT_GRACE_MS;
  const failed = (error: unknown) => done(toolFailureOutcome(tool, error, signal));
  const settled = (result: AgentToolResult | typeof GAVE_UP) => {
    if (result === GAVE_UP) {
      gaveUp = true;
      done(errorOutcome("aborted", notStoppedMessage(tool.name, graceMs), { stillRunning: true }));
      return;
    }
    let outcome: ToolOutcome;
    try {
      outcome = resultOutcome(tool.name, result);
    } catch (error) {
      // A result whose fields throw when read.
      outcome = toolFailureOutcome(tool, error, signal);
    }
    done(outcome);
  };
  let running: Promise<AgentToolResult>;
  try {
    running = Promise.resolve(tool.execute(toolCallId, args, signal, update));
  } catch (error) {
    // A synchronous throw counts as a rejection.
    failed(error);
    return;
  }
  if (signal === undefined) running.then(settled, failed);
  else if (deadline !== undefined) deadline.watch(running, settled, failed);
  else waitUnlessAborted(running, signal, graceMs).then((raced) => settled(valueOrGaveUp(raced)), failed);
}

/** The outcome of a tool's result (a result without a content list is the tool's bug). */
function resultOutcome(toolName: string, result: AgentToolResult): ToolOutcome {
  if (result === null || typeof result !== "object" || !Array.isArray(result.content)) {
    return errorOutcome(
      "execution_failed",
      `Tool ${toolName} returned no content (a bug in the tool). Try another way or report it.`,
    );
  }
  const outcome: ToolOutcome = {
    content: result.content.map(wellFormedPart),
    details: result.details,
    isError: false,
  };
  if (result.terminate === true) outcome.terminate = true;
  return outcome;
}

function valueOrGaveUp<T>(raced: AbortRaced<T>): T | typeof GAVE_UP {
  return raced.settled ? raced.value : GAVE_UP;
}

/**
 * A content part with well-formed text: a tool that echoes an input (a path with a lone
 * surrogate) must not hand the model text some providers refuse outright.
 */
function wellFormedPart<T extends ToolOutcome["content"][number]>(part: T): T {
  if (part.type !== "text" || typeof part.text !== "string") return part;
  const text = wellFormed(part.text);
  return text === part.text ? part : { ...part, text };
}

function notStoppedMessage(toolName: string, graceMs: number): string {
  const after = graceMs > 0 ? ` within ${graceMs / 1000} s` : "";
  return `Tool ${toolName} was aborted and did not stop${after}; it may still be running and its effects are unknown. Check them before calling it again.`;
}

/**
 * Maps anything a tool threw to an error outcome: a ToolError keeps its code, message and
 * details when its code is a core code or one the tool declares in `errorCodes`; with any other
 * code it is the tool author's bug, reported as `execution_failed` with the tool's message and
 * `details: { undeclaredCode, details }` (so hosts only ever see codes they can know). Must not
 * throw, also for a thrown value (or a tool) whose fields or `toString` throw.
 */
export function toolFailureOutcome(
  tool: Pick<AnyAgentTool, "name" | "errorCodes">,
  error: unknown,
  signal?: AbortSignal,
): ToolOutcome {
  let toolName = "(unnamed)";
  try {
    toolName = String(tool.name);
    if (isToolError(error)) {
      const code = String(error.code);
      const message = String(error.message);
      if (declares(tool, code)) return codedOutcome(code, message, error.details);
      const details: { undeclaredCode: string; details?: unknown } = { undeclaredCode: code };
      if (error.details !== undefined) details.details = error.details;
      return errorOutcome("execution_failed", message, details);
    }
  } catch {
    // A ToolError look-alike whose fields throw: reported below like any other failure.
  }
  if (signal?.aborted) return abortedOutcome(toolName);
  const reason = reasonOf(error);
  return errorOutcome(
    "execution_failed",
    `Tool ${toolName} failed: ${reason.replace(/[.\s]+$/, "")}. Check the arguments, or try another way.`,
  );
}

/** True when a tool may fail with `code`: a core code, or one of its `errorCodes`. */
function declares(tool: Pick<AnyAgentTool, "errorCodes">, code: string): boolean {
  if (isCoreErrorCode(code)) return true;
  const declared: unknown = tool.errorCodes;
  return typeof declared === "object" && declared !== null && Object.hasOwn(declared, code);
}

/**
 * An error outcome with a core code and a model-facing message. The message is made well-formed
 * and bounded (see `boundText`): whatever a tool quoted from its input, an error stays small.
 */
export function errorOutcome<TCode extends CoreErrorCode>(
  code: TCode,
  message: string,
  details: unknown = {},
): ToolOutcome<unknown, TCode> {
  return codedOutcome(code, message, details);
}

/** {@link errorOutcome} for any code (a tool's declared one). */
function codedOutcome<TCode extends string>(
  code: TCode,
  message: string,
  details: unknown = {},
): ToolOutcome<unknown, TCode> {
  return {
    content: [{ type: "text", text: boundText(message) }],
    details: details ?? {},
    isError: true,
    errorCode: code,
  };
}

function abortedOutcome(toolName: string): ToolOutcome {
  return errorOutcome(
    "aborted",
    `Tool ${toolName} was aborted before it finished. Check its effects before calling it again.`,
  );
}

interface Checker {
  check(value: unknown): boolean;
  errors(value: unknown): Iterable<ValueError>;
}

const checkers = new WeakMap<TSchema, Checker>();

/** Compiles each schema once; falls back to the interpreter for schemas the compiler refuses. */
function compiled(schema: TSchema): Checker {
  let checker = checkers.get(schema);
  if (checker !== undefined) return checker;
  try {
    const typeCheck: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
    checker = { check: (v) => typeCheck.Check(v), errors: (v) => typeCheck.Errors(v) };
  } catch {
    checker = { check: (v) => Value.Check(schema, v), errors: (v) => Value.Errors(schema, v) };
  }
  checkers.set(schema, checker);
  return checker;
}

let counter = 0;
function newToolCallId(): string {
  counter += 1;
  return `call_${Date.now().toString(36)}_${counter}`;
}
