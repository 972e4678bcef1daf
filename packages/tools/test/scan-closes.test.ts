/**
 * A scan the tools leave early ends while the page is laid out, and the tool answers only once
 * it has ended: no engine outlives the call. A stopped scan (its signal aborted) ends before the
 * next one may start.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import type { Operations, SearchOperations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createTools } from "../src/factories.js";
import { ScanCloses, scanWhile } from "../src/search/scan-closes.js";

/** Items 1, 2, 3, ...; its close (the generator's `finally`) waits for `gate` and marks `ended`. */
function gatedSource(gate: Promise<void>) {
  const state = { closing: false, ended: false };
  async function* items() {
    try {
      for (let i = 1; ; i++) yield i;
    } finally {
      state.closing = true;
      await gate;
      state.ended = true;
    }
  }
  return { items: items(), state };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Lets pending promise jobs and I/O callbacks run (no timer involved). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("scanWhile and ScanCloses", () => {
  it("leaving early hands the close over: scanWhile returns, settled() waits for the close", async () => {
    const { opened, open } = gate();
    const { items, state } = gatedSource(opened);
    const closes = new ScanCloses();
    const taken: number[] = [];
    await scanWhile(items, (n) => taken.push(n) < 3, closes, undefined);
    expect(taken).toEqual([1, 2, 3]);
    await turns(5);
    expect(state).toEqual({ closing: true, ended: false });
    let settled = false;
    const done = closes.settled().then(() => {
      settled = true;
    });
    await turns(5);
    expect(settled).toBe(false);
    open();
    await done;
    expect(state.ended).toBe(true);
  });

  it("without closes, or once the signal aborted, the close is awaited before scanWhile returns", async () => {
    for (const [closes, signal] of [
      [undefined, undefined],
      [new ScanCloses(), AbortSignal.abort()],
    ] as const) {
      const { opened, open } = gate();
      const { items, state } = gatedSource(opened);
      let returned = false;
      const run = scanWhile(items, () => false, closes, signal).then(() => {
        returned = true;
      });
      await turns(5);
      expect(state.closing).toBe(true);
      expect(returned).toBe(false);
      open();
      await run;
      expect(state.ended).toBe(true);
    }
  });

  it("settled() rejects with the first close that failed; a take that throws closes first", async () => {
    const closes = new ScanCloses();
    closes.add(Promise.reject(new Error("first")));
    closes.add(Promise.reject(new Error("second")));
    await expect(closes.settled()).rejects.toThrow("first");
    const { items, state } = gatedSource(Promise.resolve());
    await expect(
      scanWhile(
        items,
        () => {
          throw new Error("take failed");
        },
        new ScanCloses(),
        undefined,
      ),
    ).rejects.toThrow("take failed");
    expect(state.ended).toBe(true);
  });
});

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tackle-scan-closes-"));
  for (let d = 0; d < 30; d++) {
    const dir = join(root, `d${String(d).padStart(2, "0")}`);
    await mkdir(dir);
    await writeFile(join(dir, "f.txt"), "word\n".repeat(20));
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Live (not zombie) rg processes whose parent is this process. */
function liveRipgrepChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "rg") continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(parent) === process.pid && state !== "Z" && state !== "X") pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

describe.skipIf(process.platform !== "linux")(
  "the tools' answer and the scans they leave (Linux only: live rg processes are counted in /proc)",
  () => {
    it("grep and find answer only once every scan they started has ended; no rg is left", async () => {
      // rg as a child of this process (counted above), not of a spawn helper.
      const ops = createLocalOperations({ spawner: "direct" });
      const native = ops.search as SearchOperations;
      const scans = { started: 0, ended: 0 };
      async function* tracked<T>(run: AsyncIterable<T>): AsyncGenerator<T> {
        scans.started++;
        try {
          yield* run;
        } finally {
          // Held a few turns, as a slow exit would be: the answer must still wait for it.
          await turns(3);
          scans.ended++;
        }
      }
      const search: SearchOperations = {
        sortsByPath: true,
        grep: (request, options) => tracked(native.grep(request, options)),
        files: (request, options) => tracked(native.files(request, options)),
      };
      const operations: Operations = { ...ops, search };
      const { grep, find } = createTools({
        context: createToolContext({ cwd: root, operations }),
        names: ["grep", "find"],
      });
      for (const [tool, args] of [
        [grep, { pattern: "word", limit: 5 }],
        [grep, { pattern: "word", limit: 5, offset: 100 }],
        [find, { pattern: "*.txt", limit: 2 }],
      ] as const) {
        const outcome = await invokeTool(tool, args);
        expect(outcome.isError).toBe(false);
        expect(scans.started).toBeGreaterThan(0);
        expect(scans.ended).toBe(scans.started);
        expect(liveRipgrepChildren()).toEqual([]);
      }
    });
  },
);
