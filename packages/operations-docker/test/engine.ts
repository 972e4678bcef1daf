import Docker from "dockerode";
import { inject } from "vitest";

/** A dockerode client on the private test engine (for setting up faults from outside). */
export function testEngine(): Docker {
  return new Docker({ socketPath: inject("dockerSocket") });
}
