import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pack } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubernetesOperations } from "../src/index.js";
import { unpackTar } from "../src/tar-copy.js";
import { startTestCluster, type TestCluster } from "./support/test-cluster.js";

let cluster: TestCluster;
let dir: string;
beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.addPod("copy-0");
  dir = await mkdtemp(join(tmpdir(), "tackle-k8s-copy-"));
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

for (const v5 of [true, false]) {
  it(`copies a tree into a pod and back byte-exactly (${v5 ? "v5" : "v4"}: content length told, stdin closed only on v5)`, async () => {
    const local = v5 ? cluster : await startTestCluster({ v5: false });
    if (!v5) await local.addPod("copy-0");
    const ops: KubernetesOperations = local.operations({ pod: "copy-0" });
    const from = join(dir, `from-${v5}`);
    await mkdir(join(from, "src", "deep ü"), { recursive: true });
    await writeFile(join(from, "README.md"), "# hi\n");
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    await writeFile(join(from, "src", "deep ü", "blob.bin"), binary);
    await writeFile(join(from, "run.sh"), "echo run\n");
    await chmod(join(from, "run.sh"), 0o755);
    await symlink("src/deep ü/blob.bin", join(from, "link"));
    await ops.copyToPod(from, "/work/copied");
    expect(Buffer.from(await ops.readFile("/work/copied/src/deep ü/blob.bin")).equals(binary)).toBe(true);
    expect((await ops.stat("/work/copied/run.sh")).mode).toBe(0o755);
    expect(await ops.readlink("/work/copied/link")).toBe("src/deep ü/blob.bin");
    const back = join(dir, `back-${v5}`);
    await ops.copyFromPod("/work/copied", back);
    expect((await readFile(join(back, "src", "deep ü", "blob.bin"))).equals(binary)).toBe(true);
    expect(await readFile(join(back, "README.md"), "utf8")).toBe("# hi\n");
    expect((await stat(join(back, "run.sh"))).mode & 0o777).toBe(0o755);
    expect((await lstat(join(back, "link"))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(back, "link"))).toBe("src/deep ü/blob.bin");
    await expect(ops.copyFromPod("/work/nope", join(dir, "nope"))).rejects.toMatchObject({
      code: "not_found",
    });
    await ops.dispose();
    if (!v5) await local.stop();
  });
}

describe("unpacking on the host", () => {
  async function tarOf(
    entries: { name: string; type?: "file" | "symlink" | "directory"; linkname?: string; body?: string }[],
  ) {
    const archive = pack();
    for (const { body, ...header } of entries) {
      if (body === undefined) archive.entry(header);
      else archive.entry(header, body);
    }
    archive.finalize();
    const parts: Buffer[] = [];
    for await (const part of archive) parts.push(part as Buffer);
    return Readable.from([Buffer.concat(parts)]);
  }

  it("refuses an entry that climbs out of the target, and one through a link the archive made", async () => {
    const climb = join(dir, "climb");
    await expect(
      unpackTar(await tarOf([{ name: "../escaped.txt", body: "x" }]), climb),
    ).rejects.toMatchObject({ code: "outside_root" });
    await expect(stat(join(dir, "escaped.txt"))).rejects.toMatchObject({ code: "ENOENT" });
    const through = join(dir, "through");
    const outside = join(dir, "outside");
    await mkdir(outside);
    await expect(
      unpackTar(
        await tarOf([
          { name: "out", type: "symlink", linkname: outside },
          { name: "out/planted.txt", body: "x" },
        ]),
        through,
      ),
    ).rejects.toMatchObject({ code: "outside_root" });
    await expect(stat(join(outside, "planted.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
