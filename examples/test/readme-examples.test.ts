// The examples of the package READMEs (what npm shows a new user), run as they are written: each
// block is taken from the README, made JavaScript (types stripped, nothing else changed) and run
// by Node in a folder of its own, and what the README says it prints is checked. `pnpm check`
// only compiles these blocks; this runs them.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { anthropicReply, type ProviderServer, startProviderServer } from "@tackle/ai-sdk/testing";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { extractTypeScriptBlocks } from "../../scripts/readme-code.mjs";

const run = promisify(execFile);
const examples = resolve(import.meta.dirname, "..");
const repo = resolve(examples, "..");
/** Inside this package (and ignored by git), so the blocks resolve `@tackle/*` from its node_modules. */
const outDir = join(examples, ".guides-dist", "readme");

/** The one TypeScript block of `packages/<name>/README.md` that contains `marker`. */
async function readmeBlock(name: string, marker: string): Promise<string> {
  const markdown = await readFile(join(repo, "packages", name, "README.md"), "utf8");
  const { blocks } = extractTypeScriptBlocks(markdown) as { blocks: { code?: string }[] };
  const found = blocks.filter((block) => block.code?.includes(marker));
  if (found.length !== 1) throw new Error(`${name}/README.md: ${found.length} blocks contain ${marker}`);
  return found[0]?.code ?? "";
}

/** Runs a README block with Node in `cwd`, `env` added; rejects with its output when it fails. */
async function runBlock(
  name: string,
  marker: string,
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const code = await readmeBlock(name, marker);
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, `${name}.mjs`);
  await writeFile(file, js);
  try {
    const { stdout } = await run(process.execPath, [file], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      timeout: 120_000,
    });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${name}/README.md example failed: ${String(error)}\n${stdout}${stderr}`);
  }
}

describe("the package READMEs' examples", () => {
  it("are saved as .mts files: a new npm project is CommonJS, where their top-level await fails", async () => {
    const commands: string[] = [];
    for (const name of await readdir(join(repo, "packages"))) {
      const readme = await readFile(join(repo, "packages", name, "README.md"), "utf8").catch(() => "");
      for (const [command] of readme.matchAll(/npx tsx [^\s`]+/g)) commands.push(`${name}: ${command}`);
    }
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter((command) => !command.endsWith(".mts"))).toEqual([]);
  });

  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "tackle-readme-run-"));
    await writeFile(
      join(cwd, "package.json"),
      '{ "name": "demo", "scripts": { "test": "node test.mjs" } }\n',
    );
    await writeFile(join(cwd, "main.ts"), "export const answer = 42; // TODO: explain\n");
  });
  afterAll(async () => {
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it("@tackle/agent-core: the faux model calls ls, then answers from its result", async () => {
    const stdout = await runBlock("agent-core", 'fauxToolCall("ls"', { cwd });
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("agent_start");
    expect(lines).toContain("tool_execution_end");
    expect(lines).toContain("agent_end");
    expect(stdout).toContain("role: 'assistant'");
    expect(stdout).toContain("I found:");
    expect(stdout).toContain("main.ts"); // the answer holds what ls returned
  });

  it("@tackle/extensions: prints exactly the two lines the README names", async () => {
    const stdout = await runBlock("extensions", "defineExtension", { cwd });
    expect(stdout).toBe("blocked: Blocked: .env holds secrets. Ask the user instead.\nok: hello\n");
  });

  it("@tackle/operations-local: the command times out with its tree ended, and grep finds the line", async () => {
    const stdout = await runBlock("operations-local", "createLocalOperations", { cwd });
    expect(stdout).toMatch(/^hello\ntimed-out \{/);
    expect(stdout).toMatch(/termSent: true[\s\S]*confirmed: true/);
    expect(stdout).toContain("hello.txt 1 hello\n");
  });

  it("@tackle/tools: grep and read print what the model reads, and details carry the line count", async () => {
    const stdout = await runBlock("tools", "createTools", { cwd });
    expect(stdout).toContain("main.ts:1: export const answer = 42; // TODO: explain");
    expect(stdout).toContain('1\t{ "name": "demo"');
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("1"); // file.details.totalLines
  });

  describe("@tackle/ai-sdk against a local server speaking Anthropic's wire format", () => {
    let server: ProviderServer;
    beforeAll(async () => {
      server = await startProviderServer([
        anthropicReply({ calls: [{ id: "toolu_1", name: "bash", args: { command: "echo 1 failing" } }] }),
        anthropicReply({ text: "Fixed." }),
      ]);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("runs the agent on the model: the tool call is printed, then the last message", async () => {
      const stdout = await runBlock("ai-sdk", "agent.state.messages.at(-1)", {
        cwd,
        env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: `${server.url}/v1` },
      });
      expect(stdout).toContain('bash {"command":"echo 1 failing"}');
      expect(stdout).toContain("text: 'Fixed.'");
      expect(server.remaining).toBe(0);
      expect(JSON.stringify(server.requests[1]?.body)).toContain("1 failing");
      // The model gets a system prompt built from the tools, search tools included.
      const first = (server.requests[0]?.body ?? {}) as { system?: unknown; tools?: { name: string }[] };
      const system = JSON.stringify(first.system ?? "");
      expect(system).toContain("You are a coding agent.");
      expect(system).toContain("Available tools:");
      for (const tool of ["grep", "find", "ls", "read", "edit", "bash"])
        expect(system).toContain(`- ${tool}:`);
      const offered = first.tools ?? [];
      expect(offered.map((tool) => tool.name)).toEqual(expect.arrayContaining(["grep", "find"]));
    });
  });
});
