import { agentLoop, userMessage } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { Type } from "@tackle/agent-core/typebox";
import { describe, expect, it } from "vitest";
import { createEventRenderer } from "../src/render-events.js";

describe("tackle run's event lines", () => {
  it("show a call that ran with → and ←, and a call a hook blocked as not run, never as started", async () => {
    const echo = {
      name: "echo",
      label: "Echo",
      description: "Echoes text.",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id: string, { text }: { text: string }) => ({
        content: [{ type: "text" as const, text }],
        details: undefined,
      }),
    };
    const faux = createFauxModel([
      {
        content: [
          fauxToolCall("echo", { text: "rm -rf /" }, "bad"),
          fauxToolCall("echo", { text: "hi" }, "ok"),
        ],
      },
      "done",
    ]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [echo] },
      {
        ...faux,
        beforeToolCall: ({ args }) =>
          (args as { text: string }).text.startsWith("rm")
            ? { block: true, reason: "Blocked: not here." }
            : undefined,
      },
    );
    const render = createEventRenderer(() => 0);
    let out = "";
    for await (const event of stream) out += render(event);
    expect(out).toContain('→ echo {"text":"hi"}');
    expect(out).toContain("← echo ok (0 ms)");
    expect(out).toContain("✗ echo not run (blocked)\n  │ Blocked: not here.");
    expect(out).not.toContain('→ echo {"text":"rm -rf /"}');
  });
});
