/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): what `createDockerOperations` and
 * `startSessionContainer` accept, and the adapter shape every remote adapter shares
 * (synchronous factory, `connect`, `dispose`).
 */
import type { Operations } from "@tackle/operations";
import { expectTypeOf } from "vitest";
import {
  createDockerOperations,
  type DockerOperations,
  type SessionContainer,
  startSessionContainer,
} from "../src/index.js";

expectTypeOf(createDockerOperations({ container: "dev" })).toEqualTypeOf<DockerOperations>();
expectTypeOf<DockerOperations>().toExtend<Operations>();
expectTypeOf<DockerOperations["connect"]>().returns.toEqualTypeOf<Promise<void>>();
expectTypeOf<DockerOperations["dispose"]>().returns.toEqualTypeOf<Promise<void>>();
expectTypeOf(startSessionContainer({ image: "debian:12-slim" })).toEqualTypeOf<Promise<SessionContainer>>();

createDockerOperations({ container: "dev", docker: { socketPath: "/var/run/docker.sock" } });
createDockerOperations({ container: "dev", docker: { host: "tcp://127.0.0.1:2375" }, user: "1000" });
createDockerOperations({ container: "dev", ripgrepPath: false, residentShells: false, tempDir: "/tmp" });

// @ts-expect-error container is required
createDockerOperations({ user: "1000" });
// @ts-expect-error docker is a socket path or a host URL
createDockerOperations({ container: "dev", docker: "/var/run/docker.sock" });
// @ts-expect-error ripgrepPath is a host path or false
createDockerOperations({ container: "dev", ripgrepPath: true });
// @ts-expect-error a session container names an image, not a container
startSessionContainer({ container: "dev" });
