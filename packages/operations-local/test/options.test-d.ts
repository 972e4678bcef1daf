/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): what `createLocalOperations`
 * accepts. Like the remote adapters, it is created synchronously.
 */
import type { Operations } from "@tackle/operations";
import { expectTypeOf } from "vitest";
import { createLocalOperations } from "../src/index.js";

expectTypeOf(createLocalOperations()).toEqualTypeOf<Operations>();
createLocalOperations({ rgPath: false, killGraceMs: 500, idleGraceMs: 50, env: { PATH: "/bin" } });
createLocalOperations({ rgPath: "/usr/bin/rg" });
// @ts-expect-error rgPath is a path or false
createLocalOperations({ rgPath: true });
// @ts-expect-error killGraceMs is milliseconds
createLocalOperations({ killGraceMs: "2s" });
