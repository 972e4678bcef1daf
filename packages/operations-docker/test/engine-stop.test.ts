import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSessionContainer } from "../src/index.js";
import { importMinimalImage, type PrivateEngine, startPrivateEngine } from "../src/testing/index.js";

/** Its own engine: this test stops it while a command runs. */
let engine: PrivateEngine | undefined;

beforeAll(async () => {
  engine = await startPrivateEngine();
});

afterAll(async () => {
  await engine?.stop();
});

describe("the engine going away", () => {
  it("an engine stopped mid-command gives status unknown, then calls reject with engine_unreachable", async () => {
    if (!engine) throw new Error("the private engine did not start: see the beforeAll error");
    const image = await importMinimalImage(engine);
    const ops = await startSessionContainer({ image, docker: { socketPath: engine.socketPath } });
    const running = engine;
    let stopped: Promise<void> | undefined;
    const result = await ops.exec("echo started; sleep 60", {
      shell: "sh",
      cwd: "/",
      onChunk: () => {
        // SIGTERM: dockerd stops its containers and its containerd, then exits.
        stopped ??= new Promise((resolve) => {
          process.kill(running.pid, "SIGTERM");
          resolve();
        });
      },
    });
    await stopped;
    expect(result.status).toBe("unknown");
    expect(result.cleanup.confirmed).toBe(false);
    expect(result.cleanup.note).toBeTruthy();
    // Wait for dockerd to exit, then every call names the unreachable engine.
    for (let i = 0; i < 300; i++) {
      try {
        process.kill(running.pid, 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      } catch {
        break;
      }
    }
    await expect(ops.stat("/")).rejects.toMatchObject({
      code: "connection_lost",
      reason: "engine_unreachable",
    });
  }, 60_000);
});
