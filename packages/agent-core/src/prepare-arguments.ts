/**
 * The first half of a call: arguments snapshotted, prepared by the tool, normalised, checked for
 * misspelt fields and validated against the tool's schema (compiled once per schema), or the
 * `invalid_arguments` answer that says what to send instead.
 */
import type { TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { findForbiddenKey, forbiddenKeyProblem, reasonOf, snapshotArguments } from "./argument-snapshot.js";
import { changedFields, recordValidation } from "./audit/call-audit.js";
import { type AuditRecorder, NO_AUDIT } from "./audit/recorder.js";
import { misspeltFieldProblems } from "./misspelt-fields.js";
import { normalizeArguments } from "./normalize-arguments.js";
import { shortenInput } from "./quote-input.js";
import type { AnyAgentTool, ToolOutcome } from "./tool.js";
import { type CoreErrorCode, isToolError } from "./tool-error.js";
import { errorOutcome } from "./tool-outcome.js";
import { type TypeCheck, TypeCompiler, Value } from "./typebox-runtime.js";
import {
  ARGUMENT_PROBLEMS_SHOWN,
  type ArgumentProblem,
  formatValidationMessage,
  summarizeValidationErrors,
  type ValidationSummary,
} from "./validation-message.js";

/** Result of {@link prepareToolArguments}: validated arguments, or the error outcome to return instead. */
export type PreparedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; outcome: ToolOutcome<unknown, CoreErrorCode>; problems: ArgumentProblem[] };

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
export function safeName(tool: AnyAgentTool): string {
  try {
    return shortenInput(String(tool.name), 60);
  } catch {
    return "(unnamed)";
  }
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
