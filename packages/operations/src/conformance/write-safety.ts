import { describe, expect } from "vitest";

import {
  isTempFileName,
  parseTempFileName,
  type TempFileOwner,
  tempFileDomain,
  tempFileName,
} from "../temp-files.js";
import { type ConformanceOptions, expectCode, type SuiteContext, scaledIt, sorted, text } from "./context.js";

/**
 * The write contract under attack: `within` (a write never lands outside its root), FIFOs and
 * devices never opened, and temp files named by `tempFileName` so that dead writers' leftovers
 * are swept. Each test in its own scratch directory.
 */
export function describeWriteSafetyChecks(
  get: () => SuiteContext,
  options: Required<ConformanceOptions>,
): void {
  const check = scaledIt(options);
  let counter = 0;
  const scratch = async (): Promise<(...parts: string[]) => string> => {
    const name = `safety-${++counter}`;
    await get().ops.mkdir(get().path(name));
    return (...parts) => get().path(name, ...parts);
  };

  describe("writeFile within a root", () => {
    check("a directory that is a link out of the root is outside_root, and nothing is created", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("root"));
      await get().ops.mkdir(at("outside"));
      await get().ops.symlink(at("outside"), at("root", "out"));
      await expectCode(
        get().ops.writeFile(at("root", "out", "f.txt"), "x", { within: at("root") }),
        "outside_root",
      );
      expect(await get().ops.readdir(at("outside"))).toEqual([]);
    });
    check("a file link out of the root is outside_root; the file outside is untouched", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("root"));
      await get().ops.writeFile(at("secret.txt"), "secret");
      await get().ops.symlink(at("secret.txt"), at("root", "link"));
      await expectCode(get().ops.writeFile(at("root", "link"), "x", { within: at("root") }), "outside_root");
      expect(text(await get().ops.readFile(at("secret.txt")))).toBe("secret");
    });
    check("links that stay inside the root are followed as usual", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("root", "real"), { recursive: true });
      await get().ops.symlink("real", at("root", "alias"));
      await get().ops.writeFile(at("root", "alias", "f.txt"), "in", { within: at("root") });
      expect(text(await get().ops.readFile(at("root", "real", "f.txt")))).toBe("in");
      expect(sorted((await get().ops.readdir(at("root", "real"))).map((entry) => entry.name))).toEqual([
        "f.txt",
      ]);
    });
  });

  // Making a FIFO takes a command: an adapter without exec has no way to (see `exec`).
  if (options.exec) {
    describe("special files", () => {
      check(
        "readFile, openRead and writeFile refuse a FIFO with special_file instead of blocking",
        async () => {
          const at = await scratch();
          const made = await get().ops.exec("mkfifo pipe", { shell: "sh", cwd: at() });
          expect(made.status).toBe("completed");
          await expectCode(get().ops.readFile(at("pipe")), "special_file");
          await expectCode(async () => {
            for await (const _ of get().ops.openRead(at("pipe"))) break;
          }, "special_file");
          await expectCode(get().ops.writeFile(at("pipe"), "x"), "special_file");
          expect((await get().ops.lstat(at("pipe"))).type).toBe("other");
          // Nothing got stuck: the environment still answers.
          await get().ops.writeFile(at("after.txt"), "ok");
          expect(text(await get().ops.readFile(at("after.txt")))).toBe("ok");
        },
      );
    });
  }

  describe("temp files", () => {
    check(
      "are named by tempFileName while a write runs; a dead writer's is swept by the next write, a foreign fresh one and look-alikes stay",
      async () => {
        const at = await scratch();
        const owner = await observeWriter(get, at("big.bin"), at());
        expect(owner.pid).toBeGreaterThanOrEqual(0);
        const dead = tempFileName("dead.txt", { ...owner, pid: 999_999_999, start: "1" });
        const reused = tempFileName("reused.txt", { ...owner, start: "18446744073709551615" });
        const foreign = tempFileName("foreign.txt", {
          domain: tempFileDomain("another boot", "pid:[1]"),
          pid: 1,
          start: "1",
        });
        const lookalike = `${dead}.keep`;
        // Planted as ordinary files (the adapter's own temp files are gone by now).
        for (const name of [dead, reused, foreign, lookalike]) await get().ops.writeFile(at(name), "left");
        await get().ops.writeFile(at("next.txt"), "next");
        const names = (await get().ops.readdir(at())).map((entry) => entry.name);
        expect(names).not.toContain(dead);
        expect(names).not.toContain(reused);
        expect(names).toContain(foreign);
        expect(names).toContain(lookalike);
      },
      120_000,
    );
  });
}

/**
 * Writes a large file and lists its directory until the write's temp file shows up; returns the
 * owner its name records (tried with larger files if a write was over before a listing saw it).
 */
export async function observeWriter(
  get: () => SuiteContext,
  path: string,
  dir: string,
): Promise<TempFileOwner> {
  for (let size = 16 << 20; ; size *= 2) {
    let done = false;
    const write = get()
      .ops.writeFile(path, new Uint8Array(size).fill(0x61))
      .finally(() => {
        done = true;
      });
    let seen: string | undefined;
    while (!done && seen === undefined) {
      seen = (await get().ops.readdir(dir)).map((entry) => entry.name).find(isTempFileName);
    }
    await write;
    const owner = seen === undefined ? undefined : parseTempFileName(seen)?.owner;
    if (owner) return owner;
    if (size > 1 << 30) throw new Error("no write was slow enough to see its temp file");
  }
}
