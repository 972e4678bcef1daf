import fs from "node:fs";
import path from "node:path";
import type { AgentEvent } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROGRESS_DELAY_MS, Progress, TailFollower } from "../src/progress.js";
import { trackRunProgress } from "../src/run-progress.js";
import { EXIT, tackle, tackleOnTerminal, tempDir } from "./helpers.js";

/** Strips the status line's control sequences, leaving what a person reads. */
const visible = (text: string) => text.replace(/\r?\x1b\[2K/g, "\n").replace(/\r/g, "");

describe("TailFollower", () => {
  it("returns only the whole lines that are new since the previous tail", () => {
    const follow = new TailFollower();
    expect(follow.next("one\ntw")).toEqual(["one"]);
    expect(follow.next("one\ntwo\nthree\n")).toEqual(["two", "three"]);
    expect(follow.next("one\ntwo\nthree\n")).toEqual([]);
  });

  it("follows a tail that scrolled (older lines dropped) and repeated lines", () => {
    const follow = new TailFollower();
    expect(follow.next("a\nb\nc\n")).toEqual(["a", "b", "c"]);
    expect(follow.next("b\nc\nd\ne\n")).toEqual(["d", "e"]);
    expect(follow.next("x\nx\n")).toEqual(["x", "x"]);
    expect(follow.next("x\nx\nx\n")).toEqual(["x"]);
  });
});

describe("Progress and trackRunProgress", () => {
  function harness() {
    let now = 0;
    let written = "";
    const progress = new Progress(
      (text) => (written += text),
      () => now,
    );
    return {
      progress,
      advance(ms: number) {
        now += ms;
        progress.redraw();
      },
      screen: () => visible(written),
      stop: () => progress.stop(),
    };
  }
  const event = (e: Record<string, unknown>) => e as unknown as AgentEvent;

  it("shows what a run waits for, with elapsed time, only once it lasts", () => {
    const h = harness();
    const track = trackRunProgress(h.progress);
    track(event({ type: "turn_start" }));
    h.advance(PROGRESS_DELAY_MS - 1);
    expect(h.screen()).toBe("");
    h.advance(1201);
    expect(h.screen()).toContain("waiting for the model 1.7 s");
    track(event({ type: "message_end", message: { role: "assistant" } }));
    track(event({ type: "tool_execution_start", toolCallId: "1", toolName: "bash" }));
    h.advance(2000);
    expect(h.screen()).toContain("running bash 2.0 s");
    track(
      event({
        type: "tool_execution_update",
        toolCallId: "1",
        partialResult: { content: [{ type: "text", text: "compiling\nlinking\n" }] },
      }),
    );
    h.advance(500);
    expect(h.screen()).toContain("running bash 2.5 s · linking");
    track(event({ type: "tool_execution_end", toolCallId: "1" }));
    h.advance(5000);
    expect(h.screen().trimEnd().endsWith("linking")).toBe(true);
    h.stop();
  });

  it("prints output lines above the status line, including those from before it showed", () => {
    const h = harness();
    h.progress.status("running bash");
    h.progress.output("first\n");
    expect(h.screen()).toBe("");
    h.advance(PROGRESS_DELAY_MS);
    h.progress.output("first\nsecond\n");
    expect(
      h
        .screen()
        .split("\n")
        .filter((line) => /first|second/.test(line)),
    ).toEqual(["first", "second"]);
    h.stop();
  });
});

describe("live progress on a terminal", () => {
  let workspace: { dir: string; cleanup: () => void };
  beforeEach(() => {
    workspace = tempDir();
  });
  afterEach(() => workspace.cleanup());

  it("tackle tool bash streams a long command's output to stderr while it runs; stdout is unchanged", async () => {
    const flag = path.join(workspace.dir, "go");
    const command = `echo first-line; while [ ! -e ${flag} ]; do sleep 0.05; done; echo second-line`;
    const run = tackleOnTerminal(["tool", "bash", JSON.stringify({ command }), "--cwd", workspace.dir]);
    await run.waitForTerminal(/first-line/);
    expect(run.terminal()).toMatch(/running bash \d+\.\d s/);
    fs.writeFileSync(flag, "");
    const result = await run.done;
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain("first-line\nsecond-line");
    expect(result.stdout).not.toContain("running bash");
    expect(result.stdout).not.toContain("\x1b[");
  });

  it("tackle run shows which tool it waits for and for how long", async () => {
    const flag = path.join(workspace.dir, "go");
    const script = path.join(workspace.dir, "script.json");
    const command = `while [ ! -e ${flag} ]; do sleep 0.05; done; echo finished`;
    fs.writeFileSync(
      script,
      JSON.stringify({
        prompt: "wait for it",
        replies: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "Done." }],
      }),
    );
    const run = tackleOnTerminal(["run", "--script", script, "--cwd", workspace.dir]);
    await run.waitForTerminal(/running bash \d+\.\d s/);
    fs.writeFileSync(flag, "");
    const result = await run.done;
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toMatch(/← bash ok/);
    expect(result.stdout).not.toContain("running bash");
  });

  it("without a terminal, stderr gets no progress", async () => {
    const command = "echo a; sleep 1; echo b";
    const result = await tackle(["tool", "bash", JSON.stringify({ command }), "--cwd", workspace.dir]);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("a\nb");
  });
});
