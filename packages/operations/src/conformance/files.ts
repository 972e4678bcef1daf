import { describe, expect } from "vitest";
import {
  type ConformanceOptions,
  collect,
  concatBytes,
  expectCode,
  type SuiteContext,
  sameBytes,
  scaledIt,
  sorted,
  text,
  utf8,
} from "./context.js";
import { bigBytes, binaryBytes, FILES } from "./fixture.js";

/** Checks of the read-side file methods against the fixture tree. */
export function describeReadChecks(get: () => SuiteContext, options: Required<ConformanceOptions>): void {
  const check = scaledIt(options);
  const at = (...parts: string[]) => get().path("fixture", ...parts);

  describe("stat / lstat / realpath / readlink", () => {
    check("stat reports type, size and permission bits of a file", async () => {
      const info = await get().ops.stat(at(FILES.plain));
      expect(info).toMatchObject({ type: "file", size: utf8(FILES.plainText).length });
      expect(info.mode & ~0o7777).toBe(0);
      expect(info.mtimeMs).toBeGreaterThan(0);
    });
    check("stat of a directory and of names with unicode and spaces", async () => {
      expect((await get().ops.stat(at(FILES.spaceDir))).type).toBe("directory");
      expect((await get().ops.stat(at(FILES.unicode))).size).toBe(utf8(FILES.unicodeText).length);
    });
    check("stat follows links to files and directories", async () => {
      expect((await get().ops.stat(at(FILES.linkToFile))).type).toBe("file");
      expect((await get().ops.stat(at(FILES.linkToDir))).type).toBe("directory");
    });
    check("stat of a missing path, a dangling link and a link loop is not_found", async () => {
      await expectCode(get().ops.stat(at("no-such-file")), "not_found");
      await expectCode(get().ops.stat(at(FILES.dangling)), "not_found");
      await expectCode(get().ops.stat(at(FILES.loopA)), "not_found");
    });
    check("stat through a file used as a directory is not_directory", async () => {
      await expectCode(get().ops.stat(at(FILES.plain, "child")), "not_directory");
    });
    check("lstat reports links (also dangling and looping ones) as symlink", async () => {
      for (const name of [FILES.linkToFile, FILES.linkToDir, FILES.dangling, FILES.loopA]) {
        expect((await get().ops.lstat(at(name))).type, name).toBe("symlink");
      }
      expect((await get().ops.lstat(at(FILES.plain))).type).toBe("file");
    });
    check("realpath resolves links inside a path", async () => {
      const real = await get().ops.realpath(at(FILES.linkToDir, "nested", "deep", "leaf.txt"));
      expect(real).toBe(await get().ops.realpath(at(...FILES.leaf)));
      expect(real.endsWith("leaf.txt")).toBe(true);
      expect(real).not.toContain(FILES.linkToDir);
    });
    check("realpath of a missing path or a dangling link is not_found", async () => {
      await expectCode(get().ops.realpath(at("no-such-dir", "x")), "not_found");
      await expectCode(get().ops.realpath(at(FILES.dangling)), "not_found");
    });
    check("readlink returns the target string as stored", async () => {
      expect(await get().ops.readlink(at(FILES.linkToFile))).toBe(FILES.plain);
      expect(await get().ops.readlink(at(FILES.dangling))).toBe("missing-target");
    });
    check("readlink of a regular file is invalid_argument, of a missing path not_found", async () => {
      await expectCode(get().ops.readlink(at(FILES.plain)), "invalid_argument");
      await expectCode(get().ops.readlink(at("no-such-link")), "not_found");
    });
  });

  describe("readFile", () => {
    check("returns exact bytes: CRLF, BOM, binary and unicode names are untouched", async () => {
      const { ops } = get();
      expect(text(await ops.readFile(at(FILES.crlf)))).toBe(FILES.crlfText);
      const bom = await ops.readFile(at(FILES.bom));
      expect([...bom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(sameBytes(await ops.readFile(at(FILES.binary)), binaryBytes())).toBe(true);
      expect(text(await ops.readFile(at(FILES.unicode)))).toBe(FILES.unicodeText);
      expect(text(await ops.readFile(at(...FILES.leaf)))).toBe(FILES.leafText);
    });
    check("reads through a link and returns a Uint8Array", async () => {
      const bytes = await get().ops.readFile(at(FILES.linkToFile));
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(text(bytes)).toBe(FILES.plainText);
    });
    check("reads the whole big file", async () => {
      const bytes = await get().ops.readFile(at(FILES.big));
      expect(bytes.length).toBe(get().options.bigFileBytes);
      expect(sameBytes(bytes.subarray(bytes.length - 4096), bigBytes(bytes.length - 4096, 4096))).toBe(true);
    });
    check("maxBytes: at the limit reads, above it is too_large", async () => {
      const size = utf8(FILES.plainText).length;
      expect(text(await get().ops.readFile(at(FILES.plain), { maxBytes: size }))).toBe(FILES.plainText);
      await expectCode(get().ops.readFile(at(FILES.plain), { maxBytes: size - 1 }), "too_large");
      await expectCode(get().ops.readFile(at(FILES.big), { maxBytes: 1024 }), "too_large");
    });
    check(
      "a directory is is_directory, a missing file not_found, a file as a directory not_directory",
      async () => {
        await expectCode(get().ops.readFile(at(FILES.spaceDir)), "is_directory");
        await expectCode(get().ops.readFile(at("missing.txt")), "not_found");
        await expectCode(get().ops.readFile(at(FILES.plain, "x")), "not_directory");
        await expectCode(get().ops.readFile(at(FILES.dangling)), "not_found");
      },
    );
    check(
      "an abort during the read rejects with aborted (or the read had already finished whole)",
      async () => {
        const controller = new AbortController();
        const read = get().ops.readFile(at(FILES.big), { signal: controller.signal });
        controller.abort();
        const outcome = await read.then(
          (bytes) => bytes.length,
          (error: { code?: string }) => error.code,
        );
        expect([get().options.bigFileBytes, "aborted"]).toContain(outcome);
      },
    );
    check("a path with a NUL byte is invalid_argument", async () => {
      await expectCode(get().ops.readFile(at("bad\0name")), "invalid_argument");
      await expectCode(get().ops.stat(at("bad\0name")), "invalid_argument");
      await expectCode(get().ops.writeFile(at("bad\0name"), "x"), "invalid_argument");
    });
  });

  describe("openRead", () => {
    check("streams the last MiB of the big file from an offset", async () => {
      const size = get().options.bigFileBytes;
      const start = Math.max(0, size - (1 << 20));
      const chunks = await collect(get().ops.openRead(at(FILES.big), { start }));
      const bytes = concatBytes(chunks);
      expect(bytes.length).toBe(size - start);
      expect(sameBytes(bytes, bigBytes(start, size - start))).toBe(true);
    });
    check("streams a whole file in order from offset 0 and from an odd offset", async () => {
      const whole = concatBytes(await collect(get().ops.openRead(at(FILES.binary))));
      expect(sameBytes(whole, binaryBytes())).toBe(true);
      const tail = concatBytes(await collect(get().ops.openRead(at(FILES.binary), { start: 1001 })));
      expect(sameBytes(tail, binaryBytes().subarray(1001))).toBe(true);
    });
    check("yields nothing from an offset at or past the end", async () => {
      expect(concatBytes(await collect(get().ops.openRead(at(FILES.plain), { start: 10_000 }))).length).toBe(
        0,
      );
    });
    check("a missing file is not_found and a directory is_directory", async () => {
      await expectCode(collect(get().ops.openRead(at("missing.bin"))), "not_found");
      await expectCode(collect(get().ops.openRead(at(FILES.spaceDir))), "is_directory");
    });
    check("stops with aborted when the signal fires between chunks", async () => {
      const controller = new AbortController();
      const run = async () => {
        for await (const _chunk of get().ops.openRead(at(FILES.big), { signal: controller.signal })) {
          controller.abort();
        }
      };
      await expectCode(run, "aborted");
    });
  });

  describe("readdir", () => {
    check("lists names with their own types, links as symlink, hidden entries included", async () => {
      const entries = await get().ops.readdir(at());
      const byName = new Map(entries.map((entry) => [entry.name, entry.type]));
      expect(sorted([...byName.keys()])).toEqual(
        sorted([
          FILES.plain,
          FILES.unicode,
          FILES.spaceDir,
          FILES.crlf,
          FILES.bom,
          FILES.binary,
          FILES.big,
          FILES.linkToFile,
          FILES.linkToDir,
          FILES.dangling,
          FILES.loopA,
          FILES.loopB,
          FILES.hidden,
          FILES.hiddenDir,
        ]),
      );
      expect(byName.get(FILES.plain)).toBe("file");
      expect(byName.get(FILES.spaceDir)).toBe("directory");
      expect(byName.get(FILES.linkToDir)).toBe("symlink");
      expect(byName.get(FILES.dangling)).toBe("symlink");
    });
    check("lists a directory reached through a link", async () => {
      const entries = await get().ops.readdir(at(FILES.linkToDir));
      expect(entries).toEqual([{ name: "nested", type: "directory" }]);
    });
    check("a file is not_directory, a missing path not_found", async () => {
      await expectCode(get().ops.readdir(at(FILES.plain)), "not_directory");
      await expectCode(get().ops.readdir(at("missing-dir")), "not_found");
    });
  });

  describe("abort before the call", () => {
    check("every method rejects with aborted when the signal has already fired", async () => {
      const { ops } = get();
      const signal = AbortSignal.abort();
      const calls: [string, () => Promise<unknown>][] = [
        ["stat", () => ops.stat(at(FILES.plain), { signal })],
        ["lstat", () => ops.lstat(at(FILES.plain), { signal })],
        ["realpath", () => ops.realpath(at(FILES.plain), { signal })],
        ["readlink", () => ops.readlink(at(FILES.linkToFile), { signal })],
        ["readFile", () => ops.readFile(at(FILES.plain), { signal })],
        ["openRead", () => collect(ops.openRead(at(FILES.plain), { signal }))],
        ["writeFile", () => ops.writeFile(at("aborted-write.txt"), "x", { signal })],
        ["mkdir", () => ops.mkdir(at("aborted-dir"), { signal })],
        ["readdir", () => ops.readdir(at(), { signal })],
        ["remove", () => ops.remove(at(FILES.plain), { signal })],
        ["symlink", () => ops.symlink("x", at("aborted-link"), { signal })],
        ["rename", () => ops.rename(at(FILES.plain), at("renamed"), { signal })],
        ["chmod", () => ops.chmod(at(FILES.plain), 0o600, { signal })],
        ["exec", () => ops.exec("echo hi", { shell: "sh", cwd: at(), signal })],
      ];
      for (const [name, call] of calls) {
        let error: unknown;
        await call().catch((caught: unknown) => {
          error = caught;
        });
        expect((error as { code?: string } | undefined)?.code, name).toBe("aborted");
      }
      // Nothing happened.
      expect(text(await ops.readFile(at(FILES.plain)))).toBe(FILES.plainText);
      await expectCode(ops.stat(at("aborted-write.txt")), "not_found");
      await expectCode(ops.stat(at("aborted-dir")), "not_found");
    });
  });
}
