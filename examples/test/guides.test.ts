import { describe, it } from "vitest";
import { expectFirstSession } from "./first-session-output.js";
import { runGuide } from "./run-guide.js";

describe("getting started", () => {
  it("runs the first session on a temporary local folder", async () => {
    const { stdout } = await runGuide("getting-started");
    expectFirstSession(stdout);
  });
});
