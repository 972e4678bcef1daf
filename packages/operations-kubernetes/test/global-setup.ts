import {
  importMinimalImage,
  type PrivateEngine,
  startPrivateEngine,
} from "@tackle/operations-docker/testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Socket of the private Docker engine whose containers play the pods. */
    dockerSocket: string;
    /** The minimal image (busybox + bash) imported into it. */
    dockerImage: string;
  }
}

let engine: PrivateEngine | undefined;

/** One private dockerd for the run (the Docker package's test support). If it cannot start, the run fails. */
export async function setup(project: TestProject): Promise<void> {
  engine = await startPrivateEngine();
  project.provide("dockerSocket", engine.socketPath);
  project.provide("dockerImage", await importMinimalImage(engine));
}

export async function teardown(): Promise<void> {
  await engine?.stop();
}
