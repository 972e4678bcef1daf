import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { pack } from "tar-stream";
import type { DockerConnection } from "../docker-connection.js";
import { connectEngine } from "../engine-connection.js";

/** Non-root user in the minimal image, for permission checks. */
export const IMAGE_TEST_USER = { name: "tester", uid: 1000, gid: 1000, home: "/home/tester" };

/** Options of {@link importMinimalImage}. */
export interface MinimalImageOptions {
  /** Image reference to tag the import with (default `tackle-minimal:test`). */
  tag?: string;
  /** busybox binary to copy (default: `busybox` on the PATH; static, or with its libraries). */
  busybox?: string;
  /** bash binary to copy with the libraries `ldd` names (default: `bash` on the PATH). */
  bash?: string;
}

/**
 * Builds the smallest image the adapter must work with, from this machine's own files: static
 * busybox (every applet linked), bash with the libraries `ldd` names, `/etc/passwd` with root and
 * a `tester` user. Imported through the Engine API as a root filesystem tarball: no registry,
 * no Dockerfile. Returns the image reference. `engine` is any connection, a `PrivateEngine` too.
 */
export async function importMinimalImage(
  engine: DockerConnection,
  options: MinimalImageOptions = {},
): Promise<string> {
  const { docker } = connectEngine(engine);
  const tag = options.tag ?? "tackle-minimal:test";
  const busybox = realpathSync(which(options.busybox ?? "busybox"));
  const bash = realpathSync(which(options.bash ?? "bash"));
  const archive = pack();
  const directory = (name: string, mode = 0o755, uid = 0) =>
    archive.entry({ name, type: "directory", mode, uid, gid: uid });
  const file = (name: string, content: Buffer | string, mode = 0o644) =>
    archive.entry({ name, mode, size: Buffer.byteLength(content) }, content);

  for (const name of ["bin", "etc", "home", "lib", "lib64", "proc", "sys", "dev", "usr", "usr/bin"])
    directory(name);
  directory("tmp", 0o1777);
  directory("root", 0o700);
  directory(IMAGE_TEST_USER.home.slice(1), 0o755, IMAGE_TEST_USER.uid);
  file("bin/busybox", readFileSync(busybox), 0o755);
  const applets = execFileSync(busybox, ["--list"], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const applet of applets) {
    if (applet === "busybox" || applet === "bash") continue;
    archive.entry({ name: `bin/${applet}`, type: "symlink", linkname: "busybox" });
  }
  file("bin/bash", readFileSync(bash), 0o755);
  const made = new Set(["lib", "lib64", "usr"]);
  // busybox-static needs none; a dynamic busybox (Debian's `busybox`) brings its own.
  for (const library of new Set([...sharedLibraries(bash), ...sharedLibraries(busybox)])) {
    const parts = library.slice(1).split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const sub = parts.slice(0, depth).join("/");
      if (!made.has(sub)) {
        made.add(sub);
        directory(sub);
      }
    }
    file(library.slice(1), readFileSync(realpathSync(library)), 0o755);
  }
  const user = IMAGE_TEST_USER;
  file(
    "etc/passwd",
    `root:x:0:0:root:/root:/bin/sh\n${user.name}:x:${user.uid}:${user.gid}::${user.home}:/bin/sh\n`,
  );
  file("etc/group", `root:x:0:\n${user.name}:x:${user.gid}:\n`);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(Buffer.from(chunk as Uint8Array));

  const [repo, version = "latest"] = tag.split(":");
  const reply = (await docker.importImage(Buffer.concat(chunks) as never, {
    repo,
    tag: version,
  })) as NodeJS.ReadableStream;
  const progress: string[] = [];
  for await (const piece of reply) progress.push(String(piece));
  if (/"error"/.test(progress.join(""))) throw new Error(`image import failed: ${progress.join("")}`);
  return tag;
}

/** Absolute paths of the shared libraries (and loader) `binary` needs, from `ldd`. */
function sharedLibraries(binary: string): string[] {
  let out: string;
  try {
    out = execFileSync("ldd", [binary], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return []; // "not a dynamic executable": a static binary needs nothing.
  }
  const paths = new Set<string>();
  for (const line of out.split("\n")) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match?.[1]) paths.add(match[1]);
  }
  return [...paths];
}

function which(name: string): string {
  if (name.includes("/")) return name;
  return execFileSync("sh", ["-c", 'command -v "$1"', "sh", name], { encoding: "utf8" }).trim();
}
