/**
 * A patch racing an edit over one file, from two contexts: two agents in one host (their queues
 * share the file's place in line) and two host processes (queues that know nothing of each other,
 * so only the adapter's conditional write stands between them). One writer changes its line of
 * the shared file and its own log file with apply_patch, the other its line with edit, round after
 * round, each answering `stale_read` with a read as a model does. No change that reported success
 * may be lost, and the patch's two files always move together.
 */
import type { ToolOutcome } from "@tackle/agent-core";
import type { ToolSession } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../patch/tool.js";
import { createEditToolDefinition } from "../tools/edit.js";
import { createReadToolDefinition } from "../tools/read.js";
import { asIfAnotherProcess } from "./concurrent-edits.js";
import type { ToolsConformanceEnv } from "./env.js";

/**
 * Most patches per writer. The commit check under the race is edit's, whose race runs the full
 * count; this many already lands several patches on another writer's content on every adapter.
 */
export const MAX_CONCURRENT_PATCH_ROUNDS = 200;

const value = (round: number) => String(round).padStart(6, "0");
const lineOf = (writer: string, round: number) => `${writer} = ${value(round)};`;

/**
 * Registers the patch-against-edit races with `requestedRounds` changes per writer (at most
 * {@link MAX_CONCURRENT_PATCH_ROUNDS}).
 */
export function defineConcurrentPatchConformance(
  getEnv: () => ToolsConformanceEnv,
  requestedRounds: number,
  makeSecond?: (cwd: string) => ToolSession | Promise<ToolSession>,
): void {
  const rounds = Math.min(requestedRounds, MAX_CONCURRENT_PATCH_ROUNDS);
  const patchTool = createApplyPatchToolDefinition();
  const edit = createEditToolDefinition();
  const read = createReadToolDefinition();

  /** Runs `call` until it is not refused as stale, reading `paths` after each refusal. */
  async function untilFresh(
    ctx: ToolSession,
    paths: readonly string[],
    call: () => Promise<ToolOutcome>,
  ): Promise<{ outcome: ToolOutcome; rereads: number }> {
    const env = getEnv();
    let rereads = 0;
    let outcome = await call();
    while (outcome.isError && outcome.errorCode === "stale_read") {
      rereads++;
      for (const path of paths) expect((await env.run(read, { path }, { ctx })).isError).toBe(false);
      outcome = await call();
    }
    return { outcome, rereads };
  }

  async function race(a: ToolSession, b: ToolSession, label: string): Promise<void> {
    const env = getEnv();
    const dir = await env.freshDir("concurrent-patch");
    await env.fixture(dir, {
      "shared.ts": `// shared\n${lineOf("alpha", 0)}\n// middle\n${lineOf("beta", 0)}\n`,
      "alpha.log": `${value(0)}\n`,
    });
    const sep = env.ctx.operations.platform === "win32" ? "\\" : "/";
    const shared = `${dir}${sep}shared.ts`;
    const log = `${dir}${sep}alpha.log`;
    const patcher = async () => {
      let rereads = 0;
      let redone = 0;
      for (let round = 1; round <= rounds; round++) {
        const input = [
          "*** Begin Patch",
          `*** Update File: ${shared}`,
          "@@ // shared",
          `-${lineOf("alpha", round - 1)}`,
          `+${lineOf("alpha", round)}`,
          `*** Update File: ${log}`,
          `-${value(round - 1)}`,
          `+${value(round)}`,
          "*** End Patch",
        ].join("\n");
        const done = await untilFresh(a, [shared, log], () => env.run(patchTool, { input }, { ctx: a }));
        expect(done.outcome.isError, `patch round ${round}: ${JSON.stringify(done.outcome.content)}`).toBe(
          false,
        );
        rereads += done.rereads;
        redone += (done.outcome.details as { redone?: number } | undefined)?.redone ?? 0;
      }
      return { rereads, redone };
    };
    const editor = async () => {
      let rereads = 0;
      for (let round = 1; round <= rounds; round++) {
        const args = {
          path: shared,
          edits: [{ oldText: lineOf("beta", round - 1), newText: lineOf("beta", round) }],
        };
        const done = await untilFresh(b, [shared], () => env.run(edit, args, { ctx: b }));
        expect(done.outcome.isError, `edit round ${round}: ${JSON.stringify(done.outcome.content)}`).toBe(
          false,
        );
        rereads += done.rereads;
      }
      return { rereads };
    };
    const started = Date.now();
    const [patched, edited] = await Promise.all([patcher(), editor()]);
    const text = async (path: string) => new TextDecoder().decode(await env.ctx.operations.readFile(path));
    expect(await text(shared)).toBe(
      `// shared\n${lineOf("alpha", rounds)}\n// middle\n${lineOf("beta", rounds)}\n`,
    );
    expect(await text(log)).toBe(`${value(rounds)}\n`);
    console.info(
      `[tools conformance] ${env.ctx.operations.id}, ${label}: ${rounds} patches against ${rounds} edits in ${Date.now() - started} ms, ${patched.rereads} + ${edited.rereads} stale_read answered with a read, ${patched.redone} patches planned again at commit`,
    );
  }

  const timeout = Math.max(60_000, rounds * 400);
  describe("a patch racing an edit of the same file", () => {
    it(
      `two contexts in one host, ${rounds} patches against ${rounds} edits: none lost`,
      async () => {
        const env = getEnv();
        const second = makeSecond ? await makeSecond(env.root) : await env.makeContext(env.root);
        await race(env.ctx, second, "patch vs edit, two contexts");
      },
      timeout,
    );
    it(
      `two contexts whose queues do not know each other (as in two host processes), ${rounds} of each: none lost`,
      async () => {
        const env = getEnv();
        const second = makeSecond ? await makeSecond(env.root) : await env.makeContext(env.root);
        await race(asIfAnotherProcess(env.ctx), asIfAnotherProcess(second), "patch vs edit, two queues");
      },
      timeout,
    );
  });
}
