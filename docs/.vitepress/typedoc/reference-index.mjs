// The API reference's first page, written after TypeDoc (which makes a bare list of modules): where
// to start, one line per module saying what it is for, and the modules for tests set apart.
// `node .vitepress/typedoc/reference-index.mjs` (run by the docs' `api` script).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publicEntryPoints } from "./entry-points.mjs";

/** What each public module is for, in one line (a test checks every entry point has one). */
export const MODULE_LINES = {
  "@tackle/tools": "the tools (read, write, edit, bash, grep, find, ls, powershell, jobs) and their context",
  "@tackle/tools/local": "a tool context on this machine in one call",
  "@tackle/tools/context":
    "the pieces of a context: workspace policy, read ledger, mutation queue, artifacts",
  "@tackle/tools/audit": "the audit trail as JSON lines on disk, and reading it back",
  "@tackle/tools/native":
    "the tools as OpenAI's and Anthropic's own tool types (apply_patch, shell, text editor)",
  "@tackle/tools/patch": "apply_patch (V4A patches) as a tool",
  "@tackle/tools/search": "search without ripgrep (the portable walk), for adapters that have none",
  "@tackle/tools/shell": "the shell pipeline: command policy, output capture, background jobs",
  "@tackle/tools/text": "truncation, line splitting and byte formatting the tools share",
  "@tackle/agent-core": "messages, AgentTool, invokeTool, the agent loop and Agent, hooks, the faux model",
  "@tackle/agent-core/typebox": "TypeBox as Tackle validates with it (one bundled copy)",
  "@tackle/extensions": "defineTool, extensions, the extension runner, JSON Schemas and the system prompt",
  "@tackle/ai-sdk": "the agent loop on any AI SDK model, and the tools as AI SDK, OpenAI and Anthropic tools",
  "@tackle/ai-sandbox":
    "the AI SDK's sandbox session both ways: Operations over any session, a session over any Operations",
  "@tackle/cli": "the tackle command as a function (main), its environments and exit codes",
  "@tackle/cli/mcp": "the MCP server of tackle mcp, to run in your own host",
  "@tackle/operations": "the Operations contract every environment implements, and OperationError",
  "@tackle/operations/ripgrep": "running ripgrep and reading its JSON, for adapters",
  "@tackle/operations/adapter": "what every adapter shares: exec defaults, running commands, option checks",
  "@tackle/shell-policy":
    "the command policy of bash and powershell: allow, ask or deny before a command runs",
  "@tackle/tree-sitter": "the one tree-sitter runtime of a process, for the packages that parse",
  "@tackle/operations-local": "the environment on this machine",
  "@tackle/operations-ssh": "the environment on a machine over SSH",
  "@tackle/operations-docker": "the environment in a Docker container, and session containers",
  "@tackle/operations-kubernetes": "the environment in a Kubernetes pod",
  "@tackle/tools/testing": "fakes and checks for testing tools and hosts",
  "@tackle/ai-sdk/testing": "a local server speaking the providers' wire formats, for tests",
  "@tackle/operations-docker/testing": "a minimal local image and engine certificates, for tests",
  "@tackle/operations/conformance": "the conformance kit every adapter runs",
  "@tackle/operations/conformance/line-writer":
    "the concurrent-writers check's writer, to run in a second process",
};

/** Modules for tests and adapter authors' checks: listed apart, after the rest. */
export function isTestingModule(name) {
  return /\/testing$|\/conformance(\/|$)/.test(name);
}

/** The functions and classes a newcomer needs first: `[label, module, anchor, what]`. */
const START_HERE = [
  ["createLocalToolContext", "@tackle/tools/local", "createlocaltoolcontext", "a context on this machine"],
  ["createTools", "@tackle/tools", "createtools", "the tools you name, on one context"],
  ["invokeTool", "@tackle/agent-core", "invoketool", "run one tool call and get its outcome"],
  ["Agent", "@tackle/agent-core", "agent", "the agent loop with its state, hooks and events"],
  ["aiSdkModel", "@tackle/ai-sdk", "aisdkmodel", "any AI SDK model as the Agent's model"],
  ["toAISDKTools", "@tackle/ai-sdk", "toaisdktools", "the tools for generateText and streamText"],
  ["buildSystemPrompt", "@tackle/extensions", "buildsystemprompt", "a system prompt from the tools"],
  ["createSshOperations", "@tackle/operations-ssh", "createsshoperations", "the tools over SSH"],
  ["startSessionContainer", "@tackle/operations-docker", "startsessioncontainer", "a throwaway container"],
  ["defineTool", "@tackle/extensions", "definetool", "a tool of your own"],
  ["createMcpServer", "@tackle/cli/mcp", "createmcpserver", "the tools over MCP in your own host"],
];

/**
 * A module's line when {@link MODULE_LINES} has none: the first sentence of its source file's
 * leading doc comment, without the `` `@tackle/x`: `` it may open with.
 */
function commentLine(file) {
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(fs.readFileSync(file, "utf8"))?.[1] ?? "";
  const text = comment
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trim())
    .filter((line) => !line.startsWith("@"))
    .join(" ")
    .trim()
    .replace(/^`[^`]+`:\s*/, "");
  return /^[\s\S]*?\.(?=\s|$)/.exec(text)?.[0].replace(/\.$/, "") ?? text;
}

/** The Markdown of the reference's index page. */
export function referenceIndex(root) {
  const entries = publicEntryPoints(root);
  const names = entries.map(({ name }) => name);
  const lines = new Map(entries.map(({ name, file }) => [name, MODULE_LINES[name] ?? commentLine(file)]));
  const line = (name) => `| [${name}](${name}.md) | ${lines.get(name) ?? ""} |`;
  const main = names.filter((name) => !isTestingModule(name));
  const testing = names.filter(isTestingModule);
  return [
    "# API reference",
    "",
    "Every export of the published packages, generated from their types and doc comments. New",
    "here? Read [Getting started](../getting-started.md) first; these pages answer what a",
    "function takes and returns.",
    "",
    "## Start here",
    "",
    ...START_HERE.map(
      ([label, module, anchor, what], i) => `${i + 1}. [\`${label}\`](${module}.md#${anchor}): ${what}`,
    ),
    "",
    "## Modules",
    "",
    "| module | what it is for |",
    "| --- | --- |",
    ...main.map(line),
    "",
    "## For tests and adapter authors",
    "",
    "| module | what it is for |",
    "| --- | --- |",
    ...testing.map(line),
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  fs.writeFileSync(path.join(docs, "reference", "index.md"), referenceIndex(path.dirname(docs)));
}
