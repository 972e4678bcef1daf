import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeModelPath } from "../src/path/normalize.js";
import { createWorkspacePolicy, resolveWorkspacePath } from "../src/path/workspace-policy.js";

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
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("normalizeModelPath", () => {
  const posix = { platform: "posix" as const, homeDir: "/home/me" };

  it("expands ~, drops a leading @, decodes file:// and turns unicode spaces into spaces", () => {
    expect(normalizeModelPath("~/x.ts", posix)).toBe("/home/me/x.ts");
    expect(normalizeModelPath("~", posix)).toBe("/home/me");
    expect(normalizeModelPath("@src/a.ts", posix)).toBe("src/a.ts");
    expect(normalizeModelPath("file:///tmp/my%20file.txt", posix)).toBe("/tmp/my file.txt");
    expect(normalizeModelPath("my\u00a0file\u202fname\u2009x", posix)).toBe("my file name x");
    expect(normalizeModelPath("~user/x", posix)).toBe("~user/x");
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
    });
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
});
