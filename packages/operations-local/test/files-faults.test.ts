import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOperationError, type OperationErrorCode } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

const ops = createLocalOperations();

async function codeOf(
  action: Promise<unknown> | (() => Promise<unknown>),
): Promise<OperationErrorCode | "ok"> {
  try {
    await (typeof action === "function" ? action() : action);
    return "ok";
  } catch (error) {
    expect(isOperationError(error), String(error)).toBe(true);
    return (error as { code: OperationErrorCode }).code;
  }
}

describe("local files: bad input", () => {
  it("a relative path is invalid_argument with the path in the message", async () => {
    await expect(ops.readFile("relative/file.txt")).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("relative/file.txt"),
    });
    expect(await codeOf(ops.exec("true", { shell: "sh", cwd: "." }))).toBe("invalid_argument");
  });

  it("NUL bytes are invalid_argument everywhere, never a TypeError", async () => {
    const dir = await tempDir();
    const bad = join(dir, "a\0b");
    const codes = await Promise.all([
      codeOf(ops.stat(bad)),
      codeOf(ops.lstat(bad)),
      codeOf(ops.realpath(bad)),
      codeOf(ops.readlink(bad)),
      codeOf(ops.readFile(bad)),
      codeOf(async () => {
        for await (const _ of ops.openRead(bad)) break;
      }),
      codeOf(ops.writeFile(bad, "x")),
      codeOf(ops.mkdir(bad)),
      codeOf(ops.readdir(bad)),
      codeOf(ops.remove(bad)),
      codeOf(ops.symlink("x\0y", join(dir, "l"))),
      codeOf(ops.rename(join(dir, "x"), bad)),
      codeOf(ops.chmod(bad, 0o644)),
      codeOf(ops.exec("echo\0hi", { shell: "sh", cwd: dir })),
      codeOf(ops.exec("true", { shell: "sh", cwd: dir, env: { A: "x\0y" } })),
      codeOf(ops.exec("true", { shell: "sh", cwd: dir, outputPath: bad })),
    ]);
    expect(codes).toEqual(codes.map(() => "invalid_argument"));
    expect(await readdir(dir)).toEqual([]);
  });

  it("openRead rejects a negative or fractional start", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "f"), "x");
    const read = (start: number) => async () => {
      for await (const _ of ops.openRead(join(dir, "f"), { start })) break;
    };
    expect(await codeOf(read(-1))).toBe("invalid_argument");
    expect(await codeOf(read(1.5))).toBe("invalid_argument");
  });
});

describe("local files: writeFile details", () => {
  it("names the temp file unguessably in the target's directory and removes it on failure", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "target-is-dir"));
    expect(await codeOf(ops.writeFile(join(dir, "target-is-dir"), "x"))).toBe("is_directory");
    expect(await readdir(dir)).toEqual(["target-is-dir"]);
  });

  it("writes through a dangling link by creating its target, leaving the link in place", async () => {
    const dir = await tempDir();
    await symlink("created.txt", join(dir, "link"));
    await ops.writeFile(join(dir, "link"), "made");
    expect(await readFile(join(dir, "created.txt"), "utf8")).toBe("made");
    expect((await ops.lstat(join(dir, "link"))).type).toBe("symlink");
  });

  it("follows a chain of links to the final target", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "real"));
    await writeFile(join(dir, "real", "f.txt"), "old");
    await symlink("real", join(dir, "dirlink"));
    await symlink(join(dir, "dirlink", "f.txt"), join(dir, "link1"));
    await symlink("link1", join(dir, "link2"));
    await ops.writeFile(join(dir, "link2"), "new");
    expect(await readFile(join(dir, "real", "f.txt"), "utf8")).toBe("new");
    expect(sortedNames(await readdir(dir))).toEqual(["dirlink", "link1", "link2", "real"]);
  });

  it("a link loop is not_found, like stat", async () => {
    const dir = await tempDir();
    await symlink("b", join(dir, "a"));
    await symlink("a", join(dir, "b"));
    expect(await codeOf(ops.writeFile(join(dir, "a"), "x"))).toBe("not_found");
  });

  it("keeps a mode the umask would strip (0o777) on rewrite", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "run"), "a");
    await chmod(join(dir, "run"), 0o777);
    await ops.writeFile(join(dir, "run"), "b");
    expect((await stat(join(dir, "run"))).mode & 0o7777).toBe(0o777);
  });
});

function sortedNames(names: string[]): string[] {
  return [...names].sort();
}
