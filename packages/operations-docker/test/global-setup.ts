import type { TestProject } from "vitest/node";
import { importMinimalImage, type PrivateEngine, startPrivateEngine } from "../src/testing/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Socket of the private engine every test file uses. */
    dockerSocket: string;
    /** The minimal image (busybox + bash) imported into it. */
    dockerImage: string;
  }
}

let engine: PrivateEngine | undefined;

/**
 * One private dockerd for the whole run. If it cannot start, this throws and the run fails: the
 * suite never passes by skipping.
 */
export async function setup(project: TestProject): Promise<void> {
  engine = await startPrivateEngine();
  const image = await importMinimalImage(engine);
  project.provide("dockerSocket", engine.socketPath);
  project.provide("dockerImage", image);
}

export async function teardown(): Promise<void> {
  await engine?.stop();
}
