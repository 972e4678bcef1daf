import { inject } from "vitest";
import { type SessionContainer, type SessionContainerOptions, startSessionContainer } from "../src/index.js";

/** A fresh throwaway container from the test image on the private engine. */
export function startTestContainer(
  options: Partial<SessionContainerOptions> = {},
): Promise<SessionContainer> {
  return startSessionContainer({
    image: inject("dockerImage"),
    docker: { socketPath: inject("dockerSocket") },
    ...options,
  });
}
