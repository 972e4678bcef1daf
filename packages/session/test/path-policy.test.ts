import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWorkspacePolicy,
  looseNameKey,
  normalizeModelPath,
  pathSpellings,
  resolveWorkspacePath,
} from "../src/index.js";

const ops = createLocalOperations();
let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "tackle-policy-")));
  root = join(base, "ws");
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(root, "src", "a.ts"), "");
  await writeFile(join(base, "secret.txt"), "");
  await symlink(base, join(root, "up"));
  await symlink(join(base, "nothing-yet.txt"), join(root, "dangling"));
  await symlink("loop-b", join(root, "loop-a"));
  await symlink("loop-a", join(root, "loop-b"));
  await mkdir(join(root, "@scope"));
  await mkdir(join(root, "~"));
  await writeFile(join(root, "~", "only-here.txt"), "");
  await writeFile(join(root, "a\u00a0b.txt"), "");
  await writeFile(join(root, "a\u202fb.txt"), "");
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const posix = { platform: "posix" as const, homeDir: "/home/me" };

describe("normalizeModelPath", () => {
  it("expands ~, drops a leading @ and surrounding spaces, decodes file://, keeps other characters", () => {
    expect(normalizeModelPath("~/x.ts", posix)).toBe("/home/me/x.ts");
    expect(normalizeModelPath("~", posix)).toBe("/home/me");
    expect(normalizeModelPath("@src/a.ts", posix)).toBe("src/a.ts");
    expect(normalizeModelPath("file:///tmp/my%20file.txt", posix)).toBe("/tmp/my file.txt");
    expect(normalizeModelPath(" a.txt\n", posix)).toBe("a.txt");
    // A new file gets exactly the name it was given: no space or quote is rewritten.
    expect(normalizeModelPath("my\u00a0file\u202fname\u2009x", posix)).toBe("my\u00a0file\u202fname\u2009x");
    expect(normalizeModelPath("~user/x", posix)).toBe("~user/x");
  });

  it("lists the spellings to try: the literal path first, syntax readings after", () => {
    expect(pathSpellings("@scope/pkg/a.js", posix)).toEqual({
      tried: ["@scope/pkg/a.js", "scope/pkg/a.js"],
      fallback: "scope/pkg/a.js",
      literalScope: "@scope",
    });
    expect(pathSpellings("~/x", posix)).toEqual({ tried: ["/home/me/x", "~/x"], fallback: "/home/me/x" });
    expect(pathSpellings("a\u202fb.png ", posix)).toEqual({
      tried: ["a\u202fb.png ", "a\u202fb.png"],
      fallback: "a\u202fb.png",
    });
    expect(pathSpellings("file:///tmp/@x", posix)).toEqual({ tried: ["/tmp/@x"], fallback: "/tmp/@x" });
    expect(pathSpellings("", posix)).toEqual({ tried: ["."], fallback: "." });
  });

  it("compares names up to Unicode spaces, curly quotes and NFC/NFD", () => {
    expect(looseNameKey("10.00\u202fAM\u00a0x")).toBe("10.00 AM x");
    expect(looseNameKey("it\u2019s \u201cx\u201d")).toBe(`it's "x"`);
    expect(looseNameKey("cafe\u0301")).toBe(looseNameKey("caf\u00e9"));
    expect(looseNameKey("Readme")).not.toBe(looseNameKey("README"));
  });

  it("handles Windows file URLs and ~ with backslashes on win32", () => {
    const win = { platform: "win32" as const, homeDir: "C:\\Users\\me" };
    expect(normalizeModelPath("file:///C:/src/a.ts", win)).toBe("C:\\src\\a.ts");
    expect(normalizeModelPath("~\\x", win)).toBe("C:\\Users\\me\\x");
    expect(resolveWorkspacePath("src\\a.ts", { cwd: "C:\\repo", platform: "win32" })).toBe(
      "C:\\repo\\src\\a.ts",
    );
  });
});

describe("workspace policy", () => {
  it("resolves relative paths against cwd and reports a display path", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    const resolved = await policy.resolve("src/../src/a.ts", "read");
    expect(resolved).toEqual({
      absolute: join(root, "src/a.ts"),
      real: join(root, "src/a.ts"),
      display: "src/a.ts",
      exists: true,
      insideWorkspace: true,
      root,
    });
  });

  it("names the root a path lies in, and none for a path outside every root", async () => {
    const second = join(base, "second");
    await mkdir(second, { recursive: true });
    const policy = createWorkspacePolicy({
      operations: ops,
      cwd: root,
      roots: [root, second],
      outside: "allow",
    });
    expect((await policy.resolve(join(second, "x.txt"), "write")).root).toBe(second);
    expect((await policy.resolve("src/a.ts", "write")).root).toBe(root);
    expect((await policy.resolve("../elsewhere.txt", "write")).root).toBeUndefined();
  });

  it("displays a name starting with dots as relative, and a path above cwd as absolute", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root, outside: "allow" });
    expect((await policy.resolve("..cache/x", "write")).display).toBe("..cache/x");
    expect((await policy.resolve("../secret.txt", "read")).display).toBe(join(base, "secret.txt"));
  });

  it("checks a new file by its nearest existing parent", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    const resolved = await policy.resolve("src/new/deep/file.ts", "write");
    expect(resolved).toMatchObject({
      exists: false,
      insideWorkspace: true,
      real: join(root, "src/new/deep/file.ts"),
    });
  });

  it("denies a path outside, through .. or through a link, showing the resolved path", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    await expect(policy.resolve("../secret.txt", "read")).rejects.toMatchObject({
      code: "outside_workspace",
      message: expect.stringContaining(join(base, "secret.txt")),
    });
    await expect(policy.resolve("up/secret.txt", "read")).rejects.toMatchObject({
      code: "outside_workspace",
      message: expect.stringContaining(`really ${join(base, "secret.txt")}`),
    });
  });

  it("follows a dangling link to where a write would land", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    await expect(policy.resolve("dangling", "write")).rejects.toMatchObject({ code: "outside_workspace" });
  });

  it("read-only outside: reads pass, writes fail; allow: both pass", async () => {
    const readOnly = createWorkspacePolicy({ operations: ops, cwd: root, outside: "read-only" });
    await expect(readOnly.resolve("../secret.txt", "read")).resolves.toMatchObject({
      insideWorkspace: false,
    });
    await expect(readOnly.resolve("../secret.txt", "write")).rejects.toMatchObject({
      code: "outside_workspace",
    });
    const allow = createWorkspacePolicy({ operations: ops, cwd: root, outside: "allow" });
    await expect(allow.resolve("../secret.txt", "write")).resolves.toMatchObject({ insideWorkspace: false });
  });

  it("accepts paths inside an added root and forgets replaced roots", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    policy.addRoot(base);
    await expect(policy.resolve("../secret.txt", "write")).resolves.toMatchObject({ insideWorkspace: true });
    policy.setRoots([join(root, "src")]);
    await expect(policy.resolve("src/a.ts", "read")).resolves.toMatchObject({ insideWorkspace: true });
    await expect(policy.resolve("../secret.txt", "read")).rejects.toMatchObject({
      code: "outside_workspace",
    });
  });

  it("does not treat a sibling with a common prefix as inside", async () => {
    await mkdir(join(base, "ws-other"), { recursive: true });
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    await expect(policy.resolve("../ws-other/x", "read")).rejects.toMatchObject({
      code: "outside_workspace",
    });
  });

  it("keeps a leading @ for a new path inside an existing @scope directory, drops it otherwise", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    expect((await policy.resolve("@scope/pkg/new.js", "write")).display).toBe("@scope/pkg/new.js");
    expect((await policy.resolve("@src/new.ts", "write")).display).toBe("src/new.ts");
    expect((await policy.resolve("@src/a.ts", "read")).display).toBe("src/a.ts");
  });

  it("expands ~ first and reaches a directory literally named ~ only when home lacks the path", async () => {
    const home = join(base, "home");
    await mkdir(home, { recursive: true });
    await writeFile(join(home, "in-home.txt"), "");
    const policy = createWorkspacePolicy({
      operations: { ...ops, homeDir: home },
      cwd: root,
      outside: "allow",
    });
    expect((await policy.resolve("~/in-home.txt", "read")).absolute).toBe(join(home, "in-home.txt"));
    expect((await policy.resolve("~/only-here.txt", "read")).absolute).toBe(join(root, "~", "only-here.txt"));
    expect((await policy.resolve("~/new.txt", "write")).absolute).toBe(join(home, "new.txt"));
  });

  it("does not guess between two look-alike names", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    const resolved = await policy.resolve("a b.txt", "read");
    expect(resolved).toMatchObject({ display: "a b.txt", exists: false });
  });

  it("names a loop of links instead of calling it missing", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    for (const path of ["loop-a", "loop-a/x"]) {
      await expect(policy.resolve(path, "read")).rejects.toMatchObject({
        code: "not_found",
        message: expect.stringContaining("loop of symbolic links (loop-a -> loop-b -> loop-a)"),
      });
    }
  });

  it("refuses a NUL byte in a path as an argument error", async () => {
    const policy = createWorkspacePolicy({ operations: ops, cwd: root });
    await expect(policy.resolve("src/a.ts\0.txt", "read")).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("NUL byte"),
    });
  });
});
