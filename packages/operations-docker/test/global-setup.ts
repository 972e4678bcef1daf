import type { TestProject } from "vitest/node";
import { importMinimalImage, type PrivateEngine, startPrivateEngine } from "../src/testing/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Socket of the private engine every test file uses. */
    dockerSocket: string;
    /** The minimal image (busybox + bash) imported into it. */
    dockerImage: string;
    /** The same engine on tcp://127.0.0.1 with TLS, and a client's DOCKER_CERT_PATH for it. */
    dockerTls: { host: string; clientCertDir: string };
  }
}

let engine: PrivateEngine | undefined;

/**
 * One private dockerd for the whole run. If it cannot start, this throws and the run fails: the
 * suite never passes by skipping.
 */
export async function setup(project: TestProject): Promise<void> {
  engine = await startPrivateEngine({ tls: true });
  const image = await importMinimalImage(engine);
  project.provide("dockerSocket", engine.socketPath);
  project.provide("dockerImage", image);
  if (engine.tls)
    project.provide("dockerTls", {
      host: engine.tls.host,
      clientCertDir: engine.tls.certificates.clientCertDir,
    });
}

export async function teardown(): Promise<void> {
  await engine?.stop();
}
