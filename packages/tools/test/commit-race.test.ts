/**
 * Another writer changes the file between a tool's read and its commit (another host process,
 * whose queue this one cannot see). The other writer is a real write through a second local
 * adapter, made at the one moment that matters: right before this tool's conditional write.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { createFileMutationQueue } from "@tackle/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createEditToolDefinition, type EditDetails } from "../src/tools/edit.js";
import { createWriteToolDefinition } from "../src/tools/write.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-commit-race-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/**
 * A local adapter whose first `count` conditional writes are each preceded by `interfere()`: a
 * real write of the file by another adapter object, as another process would make it.
 */
function withInterference(interfere: () => Promise<void>, count = 1): Operations {
  const ops = createLocalOperations();
  let left = count;
  return {
    ...ops,
    id: ops.id,
    platform: ops.platform,
    async writeFile(path, data, options) {
      if (options?.expect && left > 0) {
        left--;
        await interfere();
      }
      return ops.writeFile(path, data, options);
    },
  };
}

/** A tool with a context of its own queue (what a separate host process has). */
function toolOn(operations: Operations, make: () => Parameters<typeof wrapToolDefinition>[0]): AnyAgentTool {
  const ctx = createToolContext({ cwd: dir, operations, mutations: createFileMutationQueue(operations) });
  return wrapToolDefinition(make(), () => ctx);
}

const other = createLocalOperations();
const otherWrites = (path: string, content: string) => () => other.writeFile(path, content);

describe("a change by another writer between the read and the commit", () => {
  it("edit: its edits still apply, so they are applied to the new content and both changes stay", async () => {
    const path = join(dir, "a.ts");
    await writeFile(path, "const a = 1;\nconst b = 2;\n");
    const ops = withInterference(otherWrites(path, "const a = 10;\nconst b = 2;\n"));
    const edit = toolOn(ops, () => createEditToolDefinition());
    const outcome = await invokeTool(edit, {
      path,
      edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    });
    expect(outcome.isError).toBe(false);
    expect(await readFile(path, "utf8")).toBe("const a = 10;\nconst b = 3;\n");
    expect((outcome.details as EditDetails).redone).toBe(1);
    expect(text(outcome)).toContain("Another writer changed the file while this edit was being saved");
  });

  it("edit: its edits no longer apply, so stale_read shows the new lines and the other change stays", async () => {
    const path = join(dir, "a.ts");
    await writeFile(path, "const a = 1;\nconst b = 2;\n");
    const ops = withInterference(otherWrites(path, "const a = 1;\nconst b = 20; // theirs\n"));
    const edit = toolOn(ops, () => createEditToolDefinition());
    const outcome = await invokeTool(edit, {
      path,
      edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("stale_read");
    expect(text(outcome)).toContain("was changed by another writer while this edit was being saved");
    expect(text(outcome)).toContain("const b = 20; // theirs");
    expect(await readFile(path, "utf8")).toBe("const a = 1;\nconst b = 20; // theirs\n");
  });

  it("edit: a file that keeps changing at every commit ends in stale_read, with the last change kept", async () => {
    const path = join(dir, "a.ts");
    await writeFile(path, "const a = 0;\nconst b = 2;\n");
    let round = 0;
    const ops = withInterference(() => other.writeFile(path, `const a = ${++round};\nconst b = 2;\n`), 100);
    const edit = toolOn(ops, () => createEditToolDefinition());
    const outcome = await invokeTool(edit, {
      path,
      edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    });
    expect(outcome.errorCode).toBe("stale_read");
    expect(text(outcome)).toContain("kept changing");
    expect(await readFile(path, "utf8")).toBe(`const a = ${round};\nconst b = 2;\n`);
  });

  it("write: the other writer's content is never overwritten unseen (stale_read)", async () => {
    const path = join(dir, "notes.md");
    await writeFile(path, "old\n");
    const ops = withInterference(otherWrites(path, "theirs\n"));
    const write = toolOn(ops, () => createWriteToolDefinition());
    const outcome = await invokeTool(write, { path, content: "mine\n" });
    expect(outcome.errorCode).toBe("stale_read");
    expect(await readFile(path, "utf8")).toBe("theirs\n");
  });

  it("write: a new file another writer created meanwhile is not replaced (stale_read)", async () => {
    const path = join(dir, "new.md");
    const ops = withInterference(otherWrites(path, "theirs\n"));
    const write = toolOn(ops, () => createWriteToolDefinition());
    const outcome = await invokeTool(write, { path, content: "mine\n" });
    expect(outcome.errorCode).toBe("stale_read");
    expect(await readFile(path, "utf8")).toBe("theirs\n");
  });
});
