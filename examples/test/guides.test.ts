import { describe, expect, it } from "vitest";
import { expectFirstSession } from "./first-session-output.js";
import { runGuide } from "./run-guide.js";

/** A guide's output split at its `--- name` lines: each section by its first line. */
function sectionsOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split(/^--- /m)
      .slice(1)
      .map((section) => [section.split("\n")[0] ?? "", section]),
  );
}

describe("getting started", () => {
  it("runs the first session on a temporary local folder", async () => {
    const { stdout } = await runGuide("getting-started");
    expectFirstSession(stdout);
  });
});

describe("write an Operations adapter", () => {
  it("records what the first session asked of the environment", async () => {
    const { stdout } = await runGuide("recorded-session");
    expectFirstSession(stdout.slice(0, stdout.indexOf("--- calls")));
    const counts = Object.fromEntries(
      [...stdout.slice(stdout.indexOf("--- calls")).matchAll(/^([\w.]+): (\d+)/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    expect(counts.exec).toBe(1); // the one bash call
    expect(counts.writeFile).toBeGreaterThanOrEqual(2); // write, then edit
    expect(counts["search.grep"]).toBe(1); // grep used the adapter's native search
  });
});

describe("write an Operations adapter from scratch", () => {
  it("runs the file tools on the in-memory adapter", async () => {
    const { stdout } = await runGuide("memory-session");
    const found = sectionsOf(stdout);
    expect(Object.keys(found)).toEqual(["ls", "read", "edit", "write", "grep", "find"]);
    expect(found.ls).toContain("README.md");
    expect(found.read).toContain("`Hello, ${name}`");
    expect(found.edit).toContain("Edited src/greet.ts");
    expect(found.write).toContain("Created src/main.ts");
    // The edit and the new file are there for the next calls: grep and find walk the store.
    expect(found.grep).toContain("src/greet.ts:1: export const greet = (name: string) => `Hi, ${name}`;");
    expect(found.grep).toContain('src/main.ts:2: console.log(greet("memory"));');
    expect(found.find).toContain("src/greet.ts\nsrc/main.ts");
  });
});

describe("write an extension", () => {
  it("adds a tool, refuses a guarded call and rewrites a result", async () => {
    const { stdout } = await runGuide("extension");
    const found = sectionsOf(stdout);
    expect(Object.keys(found)).toEqual(["todo_count", "read", "write (refused)"]);
    expect(found.todo_count).toContain("notes.md: 2 TODO lines");
    expect(found.read).toContain("move [internal host] to the new cluster");
    expect(found.read).not.toContain("corp.internal");
    expect(found["write (refused)"]).toContain("Blocked: vendor/lib.js is vendored.");
  });
});

describe("configure the workspace policy", () => {
  it("writes inside, reads outside, and refuses writes outside, through links too", async () => {
    const { stdout } = await runGuide("workspace-policy");
    expect(stdout.trim().split("\n")).toEqual([
      "write project/notes.md: ok",
      "read shared/style.md: ok",
      "write shared/style.md: refused (outside_workspace)",
      "write innocent.txt (a link out): refused (outside_workspace)",
    ]);
  });
});

describe("audit and recover", () => {
  it("reads each call's evidence: status by exit code, decisions, output, side effects", async () => {
    const { stdout } = await runGuide("audit");
    const [write = "", bash = ""] = stdout.split(/^--- /m).slice(1);
    expect(write).toMatch(/^call-1 write: completed\n/);
    expect(write).toContain("exact: created report.txt");
    // "ALL PASSED" in the output, exit code 1: the call failed.
    expect(bash).toMatch(/^call-2 bash: failed\nexit code 1\n/);
    expect(bash).toContain("decision shell-policy: allow");
    expect(bash).toContain("snapshot: changed report.txt");
  });
});

describe("work on this machine", () => {
  it("reaches both roots, edits in the project, refuses a path outside and runs bash there", async () => {
    const { stdout } = await runGuide("local");
    const found = sectionsOf(stdout);
    expect(Object.keys(found)).toEqual([
      "find",
      "grep",
      "read",
      "edit",
      "outside (error: outside_workspace)",
      "bash",
    ]);
    expect(found.find).toContain("src/app.ts");
    expect(found.grep).toContain("todo.md:1: - the answer is 42");
    expect(found.edit).toContain("Edited src/app.ts");
    expect(found.bash).toContain("export const answer = 42;");
  });
});

describe("add a tool", () => {
  it("counts a file, refuses a large one naming grep, and keeps the path policy", async () => {
    const { stdout } = await runGuide("add-a-tool");
    const found = sectionsOf(stdout);
    expect(Object.keys(found)).toEqual([
      "notes.md",
      "big.log (too_large)",
      "../outside.txt (outside_workspace)",
    ]);
    expect(found["notes.md"]).toContain("notes.md: 2 lines, 6 words, 37 bytes");
    expect(found["big.log (too_large)"]).toContain("Count matches with grep instead.");
    expect(found["../outside.txt (outside_workspace)"]).toContain("This path is outside the workspace");
  });
});
