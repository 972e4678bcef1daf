/**
 * A read reads a large file's chunks straight into its newline counter's memory where the
 * operations honour `openRead`'s `into` (local), and shows exactly what it shows through
 * operations that ignore it (SSH, Docker deliver buffers of their own): same lines, same totals.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import type { OpenReadOptions, Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createTools } from "../src/factories.js";

const LINES = 80_000;
// Some lines hold multi-byte characters, so windows are decoded across chunk ends too.
const lineText = (n: number) =>
  `${n} entry ${n % 7 === 0 ? "caf\u00E9 \u{1F600}" : "plain text"} ${"x".repeat(n % 50)}`;
const content = `${Array.from({ length: LINES }, (_, i) => lineText(i + 1)).join("\n")}\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-read-into-"));
  await writeFile(join(dir, "big.log"), content);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Local operations whose openRead is watched (or made to ignore `into`, like a remote adapter). */
function watchedOperations(ignoreInto: boolean) {
  const local = createLocalOperations();
  const seen = { withInto: 0, inGivenMemory: 0, chunks: 0 };
  const operations: Operations = {
    ...local,
    async *openRead(path: string, options: OpenReadOptions = {}) {
      const given = new Set<ArrayBufferLike>();
      const into = options.into;
      const watched: OpenReadOptions = ignoreInto
        ? { ...options, into: undefined }
        : {
            ...options,
            ...(into
              ? {
                  into: (size: number) => {
                    const memory = into(size);
                    if (memory) given.add(memory.buffer);
                    return memory;
                  },
                }
              : {}),
          };
      if (into) seen.withInto++;
      for await (const chunk of local.openRead(path, watched)) {
        seen.chunks++;
        if (given.has(chunk.buffer)) seen.inGivenMemory++;
        yield chunk;
      }
    },
  };
  return { operations, seen };
}

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");

async function readWith(ignoreInto: boolean, offset: number, limit: number) {
  const { operations, seen } = watchedOperations(ignoreInto);
  const context = createToolContext({ cwd: dir, operations, disposeOperations: true });
  try {
    const { read } = createTools({ context, names: ["read"] });
    const outcome = await invokeTool(read, { path: "big.log", offset, limit });
    return { shown: text(outcome), isError: outcome.isError, seen };
  } finally {
    await context.dispose();
  }
}

describe("read: chunks read into the newline counter's memory", () => {
  it("counts a large file's lines in the memory it read them into, showing the right tail", async () => {
    const { shown, isError, seen } = await readWith(false, LINES - 49, 50);
    expect(isError).toBe(false);
    expect(seen.withInto).toBe(1);
    // All chunks but the first two (the head, and the one read ahead while the head was taken).
    expect(seen.inGivenMemory).toBe(seen.chunks - 2);
    expect(seen.chunks).toBeGreaterThan(5);
    expect(shown).toContain(`${LINES - 49}\t${lineText(LINES - 49)}\n`);
    expect(shown).toContain(`${LINES}\t${lineText(LINES)}`);
  });

  it("shows the same lines and totals as through operations that ignore into", async () => {
    for (const [offset, limit] of [
      [LINES - 49, 50],
      [1, 20],
      [31_000, 300],
      [LINES + 5, 10],
    ] as const) {
      const direct = await readWith(false, offset, limit);
      const generic = await readWith(true, offset, limit);
      expect(generic.seen.inGivenMemory).toBe(0);
      expect(direct.shown, `offset ${offset}`).toBe(generic.shown);
      // An offset past the end is refused with the file's line count, the same either way.
      expect(direct.isError).toBe(offset > LINES);
    }
  });
});
