import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { OperationError, type Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createApplyPatchToolDefinition } from "../src/patch/tool.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-patch-commit-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The local environment, except that writing a file named `refused.txt` fails (a full disk, say). */
function refusingOperations(): Operations {
  const local = createLocalOperations();
  return {
    ...local,
    id: local.id,
    platform: local.platform,
    async writeFile(path, data, options) {
      if (path.endsWith("refused.txt"))
        throw new OperationError("permission_denied", "write refused", { path });
      return local.writeFile(path, data, options);
    },
  };
}

describe("apply_patch commit", () => {
  it("restores the files it already wrote when a later write fails, and says nothing changed", async () => {
    await writeFile(join(dir, "a.txt"), "alpha\n");
    const ctx = createToolContext({ cwd: dir, operations: refusingOperations() });
    const tool = wrapToolDefinition(createApplyPatchToolDefinition(), () => ctx);
    const outcome = await invokeTool(tool, {
      input: [
        "*** Begin Patch",
        "*** Update File: a.txt",
        "-alpha",
        "+ALPHA",
        "*** Add File: created.txt",
        "+new",
        "*** Add File: refused.txt",
        "+never",
        "*** End Patch",
      ].join("\n"),
    });
    expect(outcome.errorCode).toBe("execution_failed");
    const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(text).toContain("Writing refused.txt failed");
    expect(text).toContain("restored, so nothing was changed");
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
    await expect(stat(join(dir, "created.txt"))).rejects.toMatchObject({ code: "ENOENT" });
    await ctx.dispose();
  });
});
