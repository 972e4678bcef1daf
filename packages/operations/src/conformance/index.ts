/**
 * `@tackle/operations/conformance`: the one vitest suite every `Operations` adapter runs
 * unchanged. It builds its own fixture tree through the adapter under test, then checks every
 * method's results, error codes, abort behaviour, atomic writes, streaming reads, exec semantics
 * and (when offered) search and listTree.
 *
 * @example
 * ```ts
 * // test/conformance.test.ts of an adapter package
 * import { describeOperationsConformance } from "@tackle/operations/conformance";
 * describeOperationsConformance("local", async () => {
 *   const root = await mkdtemp(join(tmpdir(), "conf-"));
 *   return { ops: createLocalOperations(), root, cleanup: () => rm(root, { recursive: true }) };
 * });
 * ```
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeConditionalWriteChecks } from "./conditional-writes.js";
import type { ConformanceOptions, ConformanceSubject, MakeOperations, SuiteContext } from "./context.js";
import { expectCode, joinPath } from "./context.js";
import { describeExecChecks } from "./exec.js";
import { describeReadChecks } from "./files.js";
import { buildFileFixture, buildLinksFixture, buildSearchFixture } from "./fixture.js";
import { describeMutationChecks } from "./mutations.js";
import { describeSearchChecks } from "./search.js";
import { describeTreeListingChecks } from "./tree-listing.js";
import { describeWriteSafetyChecks } from "./write-safety.js";

export type { ConformanceOptions, ConformanceSubject, MakeOperations } from "./context.js";
export { collect, expectCode } from "./context.js";
export { listDiskTree, swapDuringWrite } from "./disk-races.js";
export type { LineWriterReport } from "./line-writer.js";
export { lineOf, lineWriterFile, lostRounds, runLineWriter } from "./line-writer.js";
export { COPIER_CONTROL, keptUnder, numbers } from "./output-helpers.js";

/** The contract asks for a 50 MB file in the fixture. */
const DEFAULT_BIG_FILE_BYTES = 50 * 1024 * 1024;
/** The issue that brought conditional writes asked for 1,000 edits by each of two writers. */
const DEFAULT_CONCURRENT_WRITE_ROUNDS = 1000;

/**
 * Registers the conformance suite as a vitest `describe` block named `name`. `makeOps` is called
 * once (in `beforeAll`) and must return the adapter plus a fresh empty directory `root` in the
 * environment; `cleanup` runs in `afterAll`.
 */
export function describeOperationsConformance(
  name: string,
  makeOps: MakeOperations,
  options: ConformanceOptions = {},
): void {
  const resolved: Required<ConformanceOptions> = {
    search: options.search ?? true,
    listTree: options.listTree ?? true,
    exec: options.exec ?? true,
    shells: options.shells ?? ["sh", "bash"],
    bigFileBytes: options.bigFileBytes ?? DEFAULT_BIG_FILE_BYTES,
    slowFactor: options.slowFactor ?? 1,
    concurrentWriteRounds: options.concurrentWriteRounds ?? DEFAULT_CONCURRENT_WRITE_ROUNDS,
  };
  let context: SuiteContext | undefined;
  let subject: ConformanceSubject | undefined;
  const get = (): SuiteContext => {
    if (!context) throw new Error("conformance setup failed: see the beforeAll error");
    return context;
  };

  describe(`Operations conformance: ${name}`, () => {
    beforeAll(async () => {
      subject = await makeOps();
      const { ops, root } = subject;
      context = {
        ops,
        root,
        options: resolved,
        path: (...parts) => joinPath(ops.platform, root, ...parts),
        timeout: (ms) => ms * resolved.slowFactor,
      };
      await buildFileFixture(ops, root, resolved.bigFileBytes);
      if (resolved.search) {
        await buildSearchFixture(ops, root);
        await buildLinksFixture(ops, root);
      }
    }, 300_000 * resolved.slowFactor);

    afterAll(async () => {
      await subject?.ops.dispose?.();
      await subject?.cleanup?.();
    }, 120_000);

    it("identifies itself", () => {
      expect(typeof get().ops.id).toBe("string");
      expect(get().ops.id.length).toBeGreaterThan(0);
      expect(["posix", "win32"]).toContain(get().ops.platform);
    });

    describeReadChecks(get, resolved);
    describeMutationChecks(get, resolved);
    describeWriteSafetyChecks(get, resolved);
    describeConditionalWriteChecks(get, resolved, async () => subject?.openAnother?.());
    if (resolved.listTree) describeTreeListingChecks(get, resolved);
    else {
      it("declares no listTree, and offers none", () => {
        expect(get().ops.listTree).toBeUndefined();
      });
    }
    if (resolved.exec) describeExecChecks(get, resolved);
    else {
      it("declares no exec: exec refuses with not_supported (its checks and the FIFO check need a command)", async () => {
        await expectCode(get().ops.exec("echo hi", { shell: "sh", cwd: get().root }), "not_supported");
      });
    }
    if (resolved.search) describeSearchChecks(get, resolved);
    else {
      it("declares no search, and offers none", () => {
        expect(get().ops.search).toBeUndefined();
      });
    }
  });
}
