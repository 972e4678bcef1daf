import { createHash } from "node:crypto";
import { describe, expect } from "vitest";
import type { Operations } from "../types.js";
import { writeLockName } from "../write-lock.js";
import { type ConformanceOptions, expectCode, type SuiteContext, scaledIt, sorted, text } from "./context.js";
import { lineWriterFile, lostRounds, runLineWriter } from "./line-writer.js";
import { observeWriter } from "./write-safety.js";

const sha256 = (content: string): string => createHash("sha256").update(content).digest("hex");

/**
 * `writeFile` with `expect` (see `WriteFileOptions.expect`): the write happens only when the file
 * still holds what the caller read, and two writers that each read, change and write back one
 * file never lose a write, whether they share an adapter object or not.
 */
export function describeConditionalWriteChecks(
  get: () => SuiteContext,
  options: Required<ConformanceOptions>,
  openAnother: () => Promise<Operations | undefined>,
): void {
  const check = scaledIt(options);
  let counter = 0;
  const scratch = async (): Promise<(...parts: string[]) => string> => {
    const name = `conditional-${++counter}`;
    await get().ops.mkdir(get().path(name));
    return (...parts) => get().path(name, ...parts);
  };
  const names = async (at: (...parts: string[]) => string): Promise<string[]> =>
    sorted((await get().ops.readdir(at())).map((entry) => entry.name));

  describe("writeFile with expect", () => {
    check("expect sha256 of the current content: the write happens", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("f.txt"), "one\n");
      await get().ops.writeFile(at("f.txt"), "two\n", { expect: { sha256: sha256("one\n") } });
      expect(text(await get().ops.readFile(at("f.txt")))).toBe("two\n");
      // The sha256 may come in upper case too.
      await get().ops.writeFile(at("f.txt"), "three\n", {
        expect: { sha256: sha256("two\n").toUpperCase() },
      });
      expect(text(await get().ops.readFile(at("f.txt")))).toBe("three\n");
      expect(await names(at)).toEqual(["f.txt"]);
    });
    check(
      "expect sha256 of other content: changed, the file untouched, no temp file or lock left",
      async () => {
        const at = await scratch();
        await get().ops.writeFile(at("f.txt"), "theirs\n");
        await expectCode(
          get().ops.writeFile(at("f.txt"), "mine\n", { expect: { sha256: sha256("what I read\n") } }),
          "changed",
        );
        expect(text(await get().ops.readFile(at("f.txt")))).toBe("theirs\n");
        expect(await names(at)).toEqual(["f.txt"]);
      },
    );
    check("expect sha256 of a file that is gone: changed, nothing created", async () => {
      const at = await scratch();
      await expectCode(
        get().ops.writeFile(at("gone.txt"), "x", { expect: { sha256: sha256("was here\n") } }),
        "changed",
      );
      expect(await names(at)).toEqual([]);
    });
    check("expect absent: creates a new file; an existing one is changed and untouched", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("new.txt"), "created\n", { expect: { absent: true } });
      expect(text(await get().ops.readFile(at("new.txt")))).toBe("created\n");
      await expectCode(
        get().ops.writeFile(at("new.txt"), "again\n", { expect: { absent: true } }),
        "changed",
      );
      expect(text(await get().ops.readFile(at("new.txt")))).toBe("created\n");
      expect(await names(at)).toEqual(["new.txt"]);
    });
    check("through a link, the link's target is compared and replaced", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("target.txt"), "old\n");
      await get().ops.symlink("target.txt", at("link"));
      await get().ops.writeFile(at("link"), "new\n", { expect: { sha256: sha256("old\n") } });
      expect(text(await get().ops.readFile(at("target.txt")))).toBe("new\n");
      expect((await get().ops.lstat(at("link"))).type).toBe("symlink");
    });
    check("an expect that is neither sha256 nor absent is invalid_argument", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("f.txt"), "x");
      const bad = { sha256: "not a digest" };
      await expectCode(get().ops.writeFile(at("f.txt"), "y", { expect: bad }), "invalid_argument");
      expect(text(await get().ops.readFile(at("f.txt")))).toBe("x");
    });
    check(
      `a lock left by a dead writer (${writeLockName("f.txt")} naming an unused pid) is taken over`,
      async () => {
        const at = await scratch();
        await get().ops.writeFile(at("f.txt"), "old\n");
        const domain = await lockDomainOf(get, at);
        await get().ops.writeFile(at(writeLockName("f.txt")), `${domain} 999999999 1\n`);
        // An adapter that uses the lock must see its holder dead and take it over: waiting for it
        // would end in `timeout` after WRITE_LOCK_WAIT_MS. (One that needs no lock file, such as
        // an in-memory store, just writes.)
        await get().ops.writeFile(at("f.txt"), "new\n", { expect: { sha256: sha256("old\n") } });
        expect(text(await get().ops.readFile(at("f.txt")))).toBe("new\n");
      },
      60_000,
    );
  });

  describe("concurrent writers", () => {
    const rounds = options.concurrentWriteRounds;
    check(
      `two writers on two adapter objects (when the adapter gives a second one), ${rounds} read-change-write rounds each on one file: no write lost`,
      async () => {
        const at = await scratch();
        const path = at("shared.txt");
        await get().ops.writeFile(path, lineWriterFile(["a", "b"]));
        const second = (await openAnother()) ?? get().ops;
        const started = Date.now();
        try {
          const reports = await Promise.all([
            runLineWriter(get().ops, path, "a", rounds),
            runLineWriter(second, path, "b", rounds),
          ]);
          const final = text(await get().ops.readFile(path));
          expect({ a: lostRounds(final, "a", rounds), b: lostRounds(final, "b", rounds) }).toEqual({
            a: [],
            b: [],
          });
          expect(reports.map((report) => report.written)).toEqual([rounds, rounds]);
          console.info(
            `[conformance] ${get().ops.id}: 2 writers x ${rounds} conditional writes in ${Date.now() - started} ms, ${reports[0]?.conflicts} + ${reports[1]?.conflicts} refused as changed and redone`,
          );
        } finally {
          if (second !== get().ops) await second.dispose?.();
        }
        expect(await names(at)).toEqual(["shared.txt"]);
      },
      Math.max(60_000, rounds * 600),
    );
  });
}

/** The domain this environment's writers record, read from a temp file seen mid-write. */
async function lockDomainOf(get: () => SuiteContext, at: (...parts: string[]) => string): Promise<string> {
  const owner = await observeWriter(get, at("big.bin"), at());
  await get().ops.remove(at("big.bin"));
  return owner.domain;
}
