/**
 * The apply_patch section of the tools conformance suite: the patch corpus through the
 * apply_patch tool on whatever `Operations` the env's context carries, plus the guarantees it
 * shares with edit and write (mutation queue, all or nothing, the shell tool's heredoc form).
 */
import type { ToolOutcome } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../patch/tool.js";
import { createBashToolDefinition } from "../tools/bash.js";
import { createReadToolDefinition } from "../tools/read.js";
import { type ToolsConformanceEnv, textOf, withPolicyProbe } from "./env.js";
import { PATCH_CORPUS, type PatchCase } from "./patch-corpus.js";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A corpus case set up in a fresh directory: its patch text and how to read its files back. */
export interface PreparedPatchCase {
  patch: string;
  /** The case's directory relative to the env's root (what `{dir}` became). */
  dir: string;
  /** Content of a file of the case (relative to its directory), or null when it does not exist. */
  content(name: string): Promise<string | null>;
  /** Checks the files after a call: `after` when it succeeded, unchanged ones always. */
  verify(outcome: ToolOutcome): Promise<void>;
}

/**
 * Builds a corpus case's files in a fresh directory of `env` (and its reads, through the read
 * tool), for a runner that sends `patch` its own way (tool, shell heredoc, provider handler).
 */
export async function preparePatchCase(
  env: ToolsConformanceEnv,
  testCase: PatchCase,
): Promise<PreparedPatchCase> {
  const abs = await env.freshDir("patch");
  const sep = env.ctx.operations.platform === "win32" ? "\\" : "/";
  const dir = abs
    .slice(env.root.length + 1)
    .split(sep)
    .join("/");
  await env.fixture(abs, testCase.files);
  const pathOf = (name: string) => `${abs}${sep}${name.split("/").join(sep)}`;
  for (const name of testCase.read ?? []) {
    const outcome = await env.run(createReadToolDefinition(), { path: pathOf(name) });
    expect(outcome.isError).toBe(false);
  }
  if (testCase.changedAfterRead) await env.fixture(abs, testCase.changedAfterRead);
  const before = { ...testCase.files, ...testCase.changedAfterRead };
  const content = async (name: string) => {
    try {
      return decoder.decode(await env.ctx.operations.readFile(pathOf(name)));
    } catch {
      return null;
    }
  };
  return {
    patch: testCase.patch.replaceAll("{dir}", dir),
    dir,
    content,
    async verify(outcome) {
      if (testCase.error) {
        expect(outcome.errorCode, textOf(outcome)).toBe(testCase.error);
      } else {
        expect(outcome.isError, textOf(outcome)).toBe(false);
      }
      for (const said of testCase.says ?? [])
        expect(textOf(outcome)).toContain(said.replaceAll("{dir}", dir));
      const expected: Record<string, string | null> = { ...before };
      if (!testCase.error) Object.assign(expected, testCase.after);
      else
        for (const [name, value] of Object.entries(testCase.after ?? {}))
          if (value === null) expected[name] = null;
      for (const [name, value] of Object.entries(expected)) expect(await content(name), name).toBe(value);
    },
  };
}

/** Registers the apply_patch conformance tests. */
export function defineApplyPatchConformance(getEnv: () => ToolsConformanceEnv): void {
  const tool = createApplyPatchToolDefinition();
  const bash = createBashToolDefinition();

  describe("apply_patch", () => {
    for (const testCase of PATCH_CORPUS) {
      it(testCase.name, async () => {
        const env = getEnv();
        const prepared = await preparePatchCase(env, testCase);
        const outcome = await env.run(tool, { input: prepared.patch });
        await prepared.verify(outcome);
      });
    }

    for (const testCase of PATCH_CORPUS.filter((c) => !c.patch.startsWith("<<"))) {
      it(`through bash as apply_patch <<'EOF': ${testCase.name}`, async () => {
        const env = getEnv();
        const prepared = await preparePatchCase(env, testCase);
        const outcome = await env.run(bash, { command: `apply_patch <<'EOF'\n${prepared.patch}\nEOF\n` });
        await prepared.verify(outcome);
      });
    }

    it("through bash, resolves the patch's paths from a leading cd and from the call's cwd", async () => {
      const env = getEnv();
      const prepared = await preparePatchCase(env, {
        name: "cd",
        files: { "sub/x.txt": "1\n", "sub/deeper/y.txt": "2\n" },
        patch: "",
      });
      const first = await env.run(bash, {
        command: `cd ${prepared.dir}/sub && apply_patch <<"PATCH"\n*** Begin Patch\n*** Update File: x.txt\n-1\n+one\n*** End Patch\nPATCH`,
      });
      expect(first.isError, textOf(first)).toBe(false);
      expect(await prepared.content("sub/x.txt")).toBe("one\n");
      const second = await env.run(bash, {
        command: "applypatch <<EOF\n*** Begin Patch\n*** Update File: y.txt\n-2\n+two\n*** End Patch\nEOF",
        cwd: env.path(prepared.dir, "sub", "deeper"),
      });
      expect(second.isError, textOf(second)).toBe(false);
      expect((second.details as { patch?: unknown }).patch).toBeDefined();
      expect(await prepared.content("sub/deeper/y.txt")).toBe("two\n");
    });

    it("through bash, runs a command that only starts like a patch command as a command", async () => {
      const env = getEnv();
      const outcome = await env.run(bash, {
        command: "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\necho ran-as-shell",
      });
      expect((outcome.details as { patch?: unknown }).patch).toBeUndefined();
      expect(textOf(outcome)).toContain("ran-as-shell");
    });

    it("takes the free-form text of a custom tool call as the patch", async () => {
      const env = getEnv();
      const prepared = await preparePatchCase(env, PATCH_CORPUS[0] as PatchCase);
      const outcome = await env.run(tool, prepared.patch);
      await prepared.verify(outcome);
    });

    it("waits for an edit of the same file in the mutation queue, then applies to its result", async () => {
      const env = getEnv();
      const prepared = await preparePatchCase(env, {
        name: "queued",
        files: { "q.txt": "a\nb\n" },
        patch: "*** Begin Patch\n*** Update File: {dir}/q.txt\n a\n-b\n+c\n*** End Patch",
      });
      const real = await env.ctx.operations.realpath(env.path(prepared.dir, "q.txt"));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      // An earlier mutation of the file holds the queue and changes the file before it lets go.
      const held = env.ctx.mutations.withFileMutation(real, async () => {
        entered();
        await gate;
        await env.ctx.operations.writeFile(real, new TextEncoder().encode("a\nb\nz\n"));
      });
      await inside;
      const probe = withPolicyProbe(env.ctx);
      const pending = env.run(tool, { input: prepared.patch }, { ctx: probe.ctx });
      // The patch passed the path policy and goes for the file next: the queue must hold it there.
      await probe.checked;
      release();
      await held;
      const outcome = await pending;
      expect(outcome.isError, textOf(outcome)).toBe(false);
      expect(await prepared.content("q.txt")).toBe("a\nc\nz\n");
    });
  });
}
