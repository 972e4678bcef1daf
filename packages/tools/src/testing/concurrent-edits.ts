/**
 * Concurrent edits of one file from two contexts: two agents in one host (their queues share the
 * file's place in line) and two host processes (queues that know nothing of each other, so only
 * the adapter's conditional write stands between them). Each writer edits its own line, round
 * after round, the way a model does: an edit, and after a `stale_read` a read and the same edit
 * again. No edit that reported success may be lost.
 */
import type { ToolOutcome } from "@tackle/agent-core";
import type { ToolSession } from "@tackle/extensions";
import { createFileMutationQueue } from "@tackle/session";
import { describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../tools/edit.js";
import { createReadToolDefinition } from "../tools/read.js";
import type { ToolsConformanceEnv } from "./env.js";

/** Default rounds per writer: the 1,000 edits the issue that brought this check asked for. */
export const DEFAULT_CONCURRENT_EDIT_ROUNDS = 1000;

const value = (round: number) => String(round).padStart(6, "0");
const lineOf = (writer: string, round: number) => `${writer} = ${value(round)};`;

/**
 * A context like `ctx` whose mutation queue is its own, not shared with any other in this
 * process: what a context in another host process has.
 */
export function asIfAnotherProcess(ctx: ToolSession): ToolSession {
  const { platform, realpath, lstat, readlink } = ctx.operations;
  const ops = ctx.operations;
  const mutations = createFileMutationQueue({
    platform,
    realpath: realpath.bind(ops),
    lstat: lstat.bind(ops),
    readlink: readlink.bind(ops),
  });
  return { ...ctx, mutations };
}

/** Registers the concurrent-edit checks with `rounds` edits per writer. */
export function defineConcurrentEditConformance(
  getEnv: () => ToolsConformanceEnv,
  rounds: number = DEFAULT_CONCURRENT_EDIT_ROUNDS,
  makeSecond?: (cwd: string) => ToolSession | Promise<ToolSession>,
): void {
  const edit = createEditToolDefinition();
  const read = createReadToolDefinition();

  /**
   * One writer's rounds; returns how often it had to read again after `stale_read`, and how often
   * an edit found the file changed at its commit and was matched again on the fresh content.
   */
  async function writer(
    ctx: ToolSession,
    path: string,
    name: string,
  ): Promise<{ rereads: number; redone: number }> {
    const env = getEnv();
    let rereads = 0;
    let redone = 0;
    for (let round = 1; round <= rounds; round++) {
      const args = { path, edits: [{ oldText: lineOf(name, round - 1), newText: lineOf(name, round) }] };
      let outcome: ToolOutcome = await env.run(edit, args, { ctx });
      while (outcome.isError && outcome.errorCode === "stale_read") {
        rereads++;
        const seen = await env.run(read, { path }, { ctx });
        expect(seen.isError, `${name} round ${round}: read failed`).toBe(false);
        outcome = await env.run(edit, args, { ctx });
      }
      // A lost edit shows here: the writer's own line is no longer what its last edit wrote.
      expect(outcome.isError, `${name} round ${round}: ${JSON.stringify(outcome.content)}`).toBe(false);
      redone += (outcome.details as { redone?: number } | undefined)?.redone ?? 0;
    }
    return { rereads, redone };
  }

  async function race(a: ToolSession, b: ToolSession, label: string): Promise<void> {
    const env = getEnv();
    const dir = await env.freshDir("concurrent-edit");
    await env.fixture(dir, {
      "shared.ts": `// shared\n${lineOf("alpha", 0)}\n// middle\n${lineOf("beta", 0)}\n`,
    });
    const path = `${dir}${env.ctx.operations.platform === "win32" ? "\\" : "/"}shared.ts`;
    const started = Date.now();
    const [first, second] = await Promise.all([writer(a, path, "alpha"), writer(b, path, "beta")]);
    const final = new TextDecoder().decode(await env.ctx.operations.readFile(path));
    expect(final).toBe(`// shared\n${lineOf("alpha", rounds)}\n// middle\n${lineOf("beta", rounds)}\n`);
    console.info(
      `[tools conformance] ${env.ctx.operations.id}, ${label}: 2 x ${rounds} edits in ${Date.now() - started} ms, ${first.rereads} + ${second.rereads} stale_read answered with a read, ${first.redone} + ${second.redone} edits matched again at commit`,
    );
  }

  const timeout = Math.max(60_000, rounds * 400);
  describe("concurrent edits of one file", () => {
    it(
      `two contexts in one host (${makeSecond ? "two adapter objects" : "one adapter"}), ${rounds} edits each of their own line: none lost`,
      async () => {
        const env = getEnv();
        const second = makeSecond ? await makeSecond(env.root) : await env.makeContext(env.root);
        await race(env.ctx, second, "two contexts");
      },
      timeout,
    );
    it(
      `two contexts whose queues do not know each other (as in two host processes), ${rounds} edits each: none lost`,
      async () => {
        const env = getEnv();
        const second = makeSecond ? await makeSecond(env.root) : await env.makeContext(env.root);
        await race(asIfAnotherProcess(env.ctx), asIfAnotherProcess(second), "two queues");
      },
      timeout,
    );
  });
}
