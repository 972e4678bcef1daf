import { describe, expect } from "vitest";
import {
  type ConformanceOptions,
  expectCode,
  type SuiteContext,
  sameBytes,
  scaledIt,
  sorted,
  text,
  utf8,
} from "./context.js";

/** Checks of writeFile, mkdir, remove, symlink, rename and chmod, each in its own scratch dir. */
export function describeMutationChecks(get: () => SuiteContext, options: Required<ConformanceOptions>): void {
  const check = scaledIt(options);
  let counter = 0;
  /** A fresh empty directory for one test. */
  const scratch = async (): Promise<(...parts: string[]) => string> => {
    const dir = get().path(`scratch-${++counter}`);
    await get().ops.mkdir(dir);
    return (...parts) => get().path(`scratch-${counter}`, ...parts);
  };

  describe("writeFile", () => {
    check("creates a file from a string (UTF-8) or bytes", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("new.txt"), "héllo\n");
      expect(text(await get().ops.readFile(at("new.txt")))).toBe("héllo\n");
      await get().ops.writeFile(at("new.bin"), new Uint8Array([0, 1, 2, 255]));
      expect([...(await get().ops.readFile(at("new.bin")))]).toEqual([0, 1, 2, 255]);
      await get().ops.writeFile(at("empty"), "");
      expect((await get().ops.stat(at("empty"))).size).toBe(0);
    });
    check("replaces content and keeps the mode of an existing file (0o755 survives)", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("tool.sh"), "#!/bin/sh\necho one\n");
      await get().ops.chmod(at("tool.sh"), 0o755);
      await get().ops.writeFile(at("tool.sh"), "#!/bin/sh\necho two\n", { mode: 0o600 });
      expect((await get().ops.stat(at("tool.sh"))).mode).toBe(0o755);
      expect(text(await get().ops.readFile(at("tool.sh")))).toBe("#!/bin/sh\necho two\n");
    });
    check("applies mode to a new file", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("private"), "secret", { mode: 0o600 });
      expect((await get().ops.stat(at("private"))).mode).toBe(0o600);
    });
    check("through a link replaces the target and leaves the link a link", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("target.txt"), "old");
      await get().ops.symlink("target.txt", at("link"));
      await get().ops.writeFile(at("link"), "new");
      expect((await get().ops.lstat(at("link"))).type).toBe("symlink");
      expect(text(await get().ops.readFile(at("target.txt")))).toBe("new");
    });
    check("leaves no temp file behind", async () => {
      const at = await scratch();
      for (let i = 0; i < 5; i++) await get().ops.writeFile(at("f.txt"), `v${i}`);
      expect((await get().ops.readdir(at())).map((entry) => entry.name)).toEqual(["f.txt"]);
    });
    check(
      "a missing parent is not_found, a directory is_directory, a file parent not_directory",
      async () => {
        const at = await scratch();
        await get().ops.mkdir(at("dir"));
        await get().ops.writeFile(at("file"), "x");
        await expectCode(get().ops.writeFile(at("missing", "f.txt"), "x"), "not_found");
        await expectCode(get().ops.writeFile(at("dir"), "x"), "is_directory");
        await expectCode(get().ops.writeFile(at("file", "f.txt"), "x"), "not_directory");
      },
    );
    check(
      "is atomic: a reader looping readFile sees only whole old or new contents",
      async () => {
        const at = await scratch();
        const size = 2 * 1024 * 1024;
        const a = new Uint8Array(size).fill(0x61);
        const b = new Uint8Array(size + 4096).fill(0x62);
        await get().ops.writeFile(at("swap.bin"), a);
        let writing = true;
        let reads = 0;
        const torn: number[] = [];
        const reader = (async () => {
          while (writing) {
            const bytes = await get().ops.readFile(at("swap.bin"));
            reads++;
            if (!sameBytes(bytes, a) && !sameBytes(bytes, b)) torn.push(bytes.length);
          }
        })();
        try {
          for (let i = 0; i < 20; i++) await get().ops.writeFile(at("swap.bin"), i % 2 === 0 ? b : a);
        } finally {
          writing = false;
          await reader;
        }
        expect(torn).toEqual([]);
        expect(reads).toBeGreaterThan(0);
        expect(sameBytes(await get().ops.readFile(at("swap.bin")), a)).toBe(true);
      },
      120_000,
    );
    check(
      "aborted during a large write leaves the old content (or the whole new one) and no temp file",
      async () => {
        const at = await scratch();
        await get().ops.writeFile(at("big.bin"), "old");
        const controller = new AbortController();
        const data = new Uint8Array(16 * 1024 * 1024).fill(0x7a);
        const write = get().ops.writeFile(at("big.bin"), data, { signal: controller.signal });
        setTimeout(() => controller.abort(), 1);
        let error: unknown;
        await write.catch((caught: unknown) => {
          error = caught;
        });
        const after = await get().ops.readFile(at("big.bin"));
        if (error === undefined) expect(after.length).toBe(data.length);
        else {
          expect((error as { code?: string }).code).toBe("aborted");
          expect(after.length === 3 || after.length === data.length).toBe(true);
        }
        expect((await get().ops.readdir(at())).map((entry) => entry.name)).toEqual(["big.bin"]);
      },
      60_000,
    );
  });

  describe("mkdir", () => {
    check("creates a directory; an existing one is exists without recursive", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("d"));
      expect((await get().ops.stat(at("d"))).type).toBe("directory");
      await expectCode(get().ops.mkdir(at("d")), "exists");
    });
    check("recursive creates parents and accepts an existing directory", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("a", "b c", "ü"), { recursive: true });
      await get().ops.mkdir(at("a", "b c", "ü"), { recursive: true });
      expect((await get().ops.stat(at("a", "b c", "ü"))).type).toBe("directory");
    });
    check("a missing parent is not_found, a file parent not_directory", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("file"), "x");
      await expectCode(get().ops.mkdir(at("missing", "d")), "not_found");
      await expectCode(get().ops.mkdir(at("file", "d")), "not_directory");
      await expectCode(get().ops.mkdir(at("file")), "exists");
    });
  });

  describe("remove", () => {
    check("removes a file and a link (not its target)", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("target"), "t");
      await get().ops.symlink("target", at("link"));
      await get().ops.remove(at("link"));
      expect(text(await get().ops.readFile(at("target")))).toBe("t");
      await get().ops.remove(at("target"));
      expect(await get().ops.readdir(at())).toEqual([]);
    });
    check("removes a link to a directory without touching the directory's contents", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("dir"));
      await get().ops.writeFile(at("dir", "keep"), "k");
      await get().ops.symlink("dir", at("dirlink"));
      await get().ops.remove(at("dirlink"), { recursive: true });
      expect(text(await get().ops.readFile(at("dir", "keep")))).toBe("k");
    });
    check("an empty directory goes without recursive; a non-empty one is exists", async () => {
      const at = await scratch();
      await get().ops.mkdir(at("empty"));
      await get().ops.remove(at("empty"));
      await get().ops.mkdir(at("full"));
      await get().ops.writeFile(at("full", "f"), "x");
      await expectCode(get().ops.remove(at("full")), "exists");
      await get().ops.remove(at("full"), { recursive: true });
      expect(await get().ops.readdir(at())).toEqual([]);
    });
    check("a missing path is not_found, unless force", async () => {
      const at = await scratch();
      await expectCode(get().ops.remove(at("missing")), "not_found");
      await get().ops.remove(at("missing"), { force: true });
    });
  });

  describe("symlink / rename / chmod", () => {
    check("symlink creates a link; an existing path is exists", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("t.txt"), "t");
      await get().ops.symlink("t.txt", at("l"));
      expect(await get().ops.readlink(at("l"))).toBe("t.txt");
      expect(text(await get().ops.readFile(at("l")))).toBe("t");
      await expectCode(get().ops.symlink("t.txt", at("l")), "exists");
    });
    check("rename moves a file and replaces an existing target; a missing source is not_found", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("from"), "1");
      await get().ops.writeFile(at("to"), "2");
      await get().ops.rename(at("from"), at("to"));
      expect(sorted((await get().ops.readdir(at())).map((entry) => entry.name))).toEqual(["to"]);
      expect(text(await get().ops.readFile(at("to")))).toBe("1");
      await expectCode(get().ops.rename(at("missing"), at("x")), "not_found");
    });
    check("chmod sets permission bits; a missing path is not_found", async () => {
      const at = await scratch();
      await get().ops.writeFile(at("f"), "x");
      await get().ops.chmod(at("f"), 0o640);
      expect((await get().ops.stat(at("f"))).mode).toBe(0o640);
      await expectCode(get().ops.chmod(at("missing"), 0o640), "not_found");
    });
    check("writes unicode names byte-exactly", async () => {
      const at = await scratch();
      const name = "naïve – 日本語 ✓.txt";
      await get().ops.writeFile(at(name), utf8("ok"));
      expect((await get().ops.readdir(at())).map((entry) => entry.name)).toEqual([name]);
    });
  });
}
