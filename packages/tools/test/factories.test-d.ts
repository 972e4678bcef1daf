/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): each factory hands back tools typed
 * per name, so callers never restate a tool's parameters or details.
 */
import type { Static } from "@sinclair/typebox";
import { type AgentTool, type CoreErrorCode, invokeTool, type ToolErrorCode } from "@tackle/agent-core";
import type { ToolSession } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { expectTypeOf } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import {
  type createAllTools,
  createAvailableTools,
  type createCodingTools,
  type createReadOnlyTools,
  createTool,
  createToolContext,
  createToolDefinition,
  createTools,
  type TackleToolErrorCode,
  type ToolByName,
} from "../src/index.js";
import { createLocalToolContext } from "../src/local.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import type { EditDetails, EditParams } from "../src/tools/edit.js";
import type { JobsDetails } from "../src/tools/jobs.js";
import type { ReadDetails, ReadParams } from "../src/tools/read.js";

declare const context: ToolContext;
declare const extensionContext: ToolSession;

type ParamsOf<T> = T extends AgentTool<infer P, unknown> ? Static<P> : never;
type DetailsOf<T> = T extends AgentTool<any, infer D> ? D : never;

// createToolDefinition: parameters, details and options from the name.
const readDefinition = createToolDefinition("read", { maxLines: 10 });
expectTypeOf<Parameters<typeof readDefinition.execute>[1]>().toEqualTypeOf<ReadParams>();
expectTypeOf<Awaited<ReturnType<typeof readDefinition.execute>>["details"]>().toEqualTypeOf<ReadDetails>();
const editDefinition = createToolDefinition("edit");
expectTypeOf<Awaited<ReturnType<typeof editDefinition.execute>>["details"]>().toEqualTypeOf<EditDetails>();
// @ts-expect-error ls takes no options
createToolDefinition("ls", { maxLines: 10 });
// @ts-expect-error read's options are ReadToolOptions
createToolDefinition("read", { timeout: 5 });
// @ts-expect-error not a tool name
createToolDefinition("cat");

// createTool: an AgentTool typed with that tool's parameters and details.
const read = createTool("read", { context });
expectTypeOf(read).toEqualTypeOf<ToolByName["read"]>();
expectTypeOf<ParamsOf<typeof read>>().toEqualTypeOf<ReadParams>();
expectTypeOf<DetailsOf<typeof read>>().toEqualTypeOf<ReadDetails>();
const edit = createTool("edit", { context: () => extensionContext, options: { maxLines: 50 } });
expectTypeOf<ParamsOf<typeof edit>>().toEqualTypeOf<EditParams>();
// @ts-expect-error a context is required
createTool("read", {});
// @ts-expect-error a context is required
createTool("read");
// @ts-expect-error options follow the name
createTool("bash", { context, options: { maxLines: "ten" } });

// createTools: a record keyed by the names, plus jobs with a shell tool.
const some = createTools({ context, names: ["read", "edit"] });
expectTypeOf(some).toEqualTypeOf<{ read: ToolByName["read"]; edit: ToolByName["edit"] }>();
// @ts-expect-error bash was not asked for
some.bash;
const shell = createTools({ context, names: ["bash"] });
expectTypeOf<keyof typeof shell>().toEqualTypeOf<"bash" | "jobs">();
expectTypeOf<DetailsOf<typeof shell.bash>>().toEqualTypeOf<ShellToolDetails>();
expectTypeOf<DetailsOf<typeof shell.jobs>>().toEqualTypeOf<JobsDetails>();
// @ts-expect-error names are tool names
createTools({ context, names: ["read", "cat"] });

// The sets document what they hold.
expectTypeOf<keyof ReturnType<typeof createCodingTools>>().toEqualTypeOf<
  "read" | "bash" | "edit" | "write" | "jobs"
>();
expectTypeOf<keyof ReturnType<typeof createReadOnlyTools>>().toEqualTypeOf<"read" | "grep" | "find" | "ls">();
expectTypeOf<keyof ReturnType<typeof createAllTools>>().toEqualTypeOf<
  "read" | "write" | "edit" | "bash" | "grep" | "find" | "ls" | "powershell" | "jobs" | "apply_patch"
>();
const available = await createAvailableTools({ context });
expectTypeOf(available.bash).toEqualTypeOf<ToolByName["bash"]>();
expectTypeOf(available.powershell).toEqualTypeOf<ToolByName["powershell"] | undefined>();

// Contexts: createToolContext needs the environment; the adapter is any Operations.
declare const operations: Operations;
expectTypeOf(createToolContext({ cwd: "/work", operations })).toEqualTypeOf<ToolContext>();
createToolContext({ cwd: "/work", operations, disposeOperations: true, roots: ["/work", "/shared"] });
// @ts-expect-error operations is required: the root entry never picks this machine for you
createToolContext({ cwd: "/work" });

// Contexts: the local one-liner is a ToolContext with dispose().
const local = createLocalToolContext({ cwd: "/tmp" });
expectTypeOf(local).toEqualTypeOf<ToolContext>();
expectTypeOf(local.dispose).returns.toEqualTypeOf<Promise<void>>();
expectTypeOf(local).toExtend<ToolSession>();

// invokeTool follows the tool: written arguments checked, details typed on success.
const outcome = await invokeTool(read, { path: "a.ts", limit: 20 });
if (!outcome.isError) expectTypeOf(outcome.details).toEqualTypeOf<ReadDetails>();
// @ts-expect-error edits is an array of { oldText, newText }
await invokeTool(edit, { path: "a.ts", edits: "replace a with b" });

// Error codes follow the tool: a failure of edit is a core code or one edit declares.
expectTypeOf<ToolErrorCode<typeof edit>>().toEqualTypeOf<
  CoreErrorCode | "no_match" | "ambiguous_match" | "overlapping_edits" | "encoding" | "redacted_text"
>();
expectTypeOf<ToolErrorCode<typeof read>>().toEqualTypeOf<CoreErrorCode | "binary_file">();
expectTypeOf<ToolErrorCode<ToolByName["ls"]>>().toEqualTypeOf<CoreErrorCode>();
const edited = await invokeTool(edit, { path: "a.ts", edits: [{ oldText: "a", newText: "b" }] });
if (edited.isError) expectTypeOf(edited.errorCode).toExtend<TackleToolErrorCode>();
// Every tool's codes are among the union hosts branch on.
expectTypeOf<ToolErrorCode<ToolByName[keyof ToolByName]>>().toEqualTypeOf<TackleToolErrorCode>();
