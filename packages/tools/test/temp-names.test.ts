/** The temp files of writes (in progress, or left by a killed writer) never show in ls, find or grep. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { type Operations, tempFileName } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createFindToolDefinition } from "../src/tools/find.js";
import { createGrepToolDefinition } from "../src/tools/grep.js";
import { createLsToolDefinition } from "../src/tools/ls.js";

const owner = { domain: "0123456789ab", pid: 999_999_999, start: "1" };
let dir: string;
const temps: string[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-temp-names-")));
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "notes.txt"), "needle\n");
  await writeFile(join(dir, "src", "a.ts"), "needle\n");
  for (const [where, target] of [
    [dir, "notes.txt"],
    [join(dir, "src"), "a.ts"],
  ] as const) {
    const name = tempFileName(target, owner);
    temps.push(name);
    await writeFile(join(where, name), "needle in a half-written file\n");
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const local = createLocalOperations();
const engines: [string, Operations][] = [
  ["native search", local],
  ["portable search", { ...local, search: undefined }],
];

function textOf(outcome: { content: { type: string; text?: string }[] }): string {
  return outcome.content.map((part) => part.text ?? "").join("\n");
}

describe.each(engines)("temp file names are hidden (%s)", (_name, operations) => {
  const ctx = () => createToolContext({ cwd: dir, operations });

  it("ls lists the directory without them", async () => {
    const ls = wrapToolDefinition(createLsToolDefinition(), ctx);
    const text = textOf(await invokeTool(ls, {}));
    expect(text).toContain("notes.txt");
    for (const name of temps) expect(text).not.toContain(name);
  });

  it("find lists files without them", async () => {
    const find = wrapToolDefinition(createFindToolDefinition(), ctx);
    const text = textOf(await invokeTool(find, { pattern: "**/*" }));
    expect(text).toContain("src/a.ts");
    for (const name of temps) expect(text).not.toContain(name);
  });

  it("grep finds matches without them", async () => {
    const grep = wrapToolDefinition(createGrepToolDefinition(), ctx);
    const outcome = await invokeTool(grep, { pattern: "needle" });
    const text = textOf(outcome);
    expect(text).toContain("notes.txt:1:");
    expect(text).toContain("src/a.ts:1:");
    expect(text).not.toContain("half-written");
    expect(outcome.details).toMatchObject({ matches: 2, files: 2 });
  });
});
