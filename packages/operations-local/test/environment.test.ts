/** What audit records say of a local environment: this host and the user the process runs as. */
import { hostname, userInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";

describe("the local environment's description", () => {
  it("names this machine's host name and the process's user", () => {
    expect(createLocalOperations().environment).toEqual({
      kind: "local",
      host: hostname(),
      user: userInfo().username,
    });
  });
});
