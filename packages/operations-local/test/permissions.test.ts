import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";

/**
 * Permission errors need a user the kernel checks: root (which CI and this machine use) bypasses
 * mode bits. So the calls run in a child process as `nobody` (uid 65534) when the tests run as
 * root, or as the current user otherwise. The child loads the built package (dist), which the
 * `test` task builds first.
 */
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const NOBODY = 65_534;

const probe = `
const { createLocalOperations } = await import(process.argv[1]);
const dir = process.argv[2];
const ops = createLocalOperations();
const calls = {
  readFile: () => ops.readFile(dir + "/closed-file"),
  openRead: async () => { for await (const _ of ops.openRead(dir + "/closed-file")) break; },
  writeFileExisting: () => ops.writeFile(dir + "/closed-dir/f.txt", "x"),
  writeFileInClosedDir: () => ops.writeFile(dir + "/readonly-dir/new.txt", "x"),
  writeFileReadOnlyFile: () => ops.writeFile(dir + "/readonly-file", "x"),
  readdir: () => ops.readdir(dir + "/closed-dir"),
  mkdir: () => ops.mkdir(dir + "/readonly-dir/sub"),
  remove: () => ops.remove(dir + "/readonly-dir/f.txt"),
  chmod: () => ops.chmod(dir + "/readonly-dir/f.txt", 0o777),
  stat: () => ops.stat(dir + "/closed-dir/f.txt"),
  exec: () => ops.exec("true", { shell: "sh", cwd: dir + "/closed-dir" }),
  grep: async () => { for await (const _ of ops.search.grep({ pattern: "x", path: dir + "/closed-file" })) {} },
  grepClosedDir: async () => { for await (const _ of ops.search.grep({ pattern: "x", path: dir + "/closed-dir" })) {} },
  files: async () => { for await (const _ of ops.search.files({ path: dir + "/closed-dir" })) {} },
};
const codes = {};
for (const [name, call] of Object.entries(calls)) {
  try { await call(); codes[name] = "ok"; } catch (error) { codes[name] = error.code ?? String(error); }
}
process.stdout.write(JSON.stringify(codes));
`;

describe("local files: permission errors", () => {
  it("every method reports permission_denied for what the user may not touch", async () => {
    expect(existsSync(dist), "build the package first (pnpm --filter @tackle/operations-local build)").toBe(
      true,
    );
    const dir = await tempDir();
    await chmod(dir, 0o755);
    await writeFile(join(dir, "closed-file"), "x\n");
    await chmod(join(dir, "closed-file"), 0);
    await writeFile(join(dir, "readonly-file"), "keep");
    await chmod(join(dir, "readonly-file"), 0o444);
    await mkdir(join(dir, "closed-dir"));
    await writeFile(join(dir, "closed-dir", "f.txt"), "x");
    await chmod(join(dir, "closed-dir"), 0);
    await mkdir(join(dir, "readonly-dir"));
    await writeFile(join(dir, "readonly-dir", "f.txt"), "x");
    await chmod(join(dir, "readonly-dir"), 0o555);

    const asRoot = process.getuid?.() === 0;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", probe, pathToFileURL(dist).href, dir],
        asRoot ? { uid: NOBODY, gid: NOBODY } : {},
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    await chmod(join(dir, "closed-dir"), 0o755);
    await chmod(join(dir, "readonly-dir"), 0o755);
    const codes = JSON.parse(stdout) as Record<string, string>;
    expect(codes).toEqual(Object.fromEntries(Object.keys(codes).map((name) => [name, "permission_denied"])));
  });
});
