import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { OperationError, throwIfAborted } from "@tackle/operations";
import { shellText } from "@tackle/operations/container-scripts";
import { extract, pack } from "tar-stream";
import type { PodClient } from "./pod-client.js";

/** Unpacks exactly `$2` bytes of tar from stdin into `$1` (created if missing). */
const UNPACK_SCRIPT = shellText`
mkdir -p "$1" 2>/dev/null; [ -d "$1" ] || exit 92
cd "$1" 2>/dev/null || exit 91
head -c "$2" | tar -xf -`;

/** Packs the directory `$1` (its contents, not itself) as tar on stdout. */
const PACK_SCRIPT = shellText`
[ -e "$1" ] || exit 90; [ -d "$1" ] || exit 92
cd "$1" 2>/dev/null || exit 91
exec tar -cf - .`;

const CODES: Record<number, "not_found" | "permission_denied" | "not_directory"> = {
  90: "not_found",
  91: "permission_denied",
  92: "not_directory",
};

/**
 * Copies the host directory `from` into the pod directory `to`, as `kubectl cp` does: a tar made
 * on the host, unpacked by `tar` in the container over one exec (the script is told the byte
 * count, so it also works where stdin cannot be closed alone, on v4). Regular files, directories
 * and symbolic links (as links), with their permission bits.
 */
export async function copyToPod(
  client: PodClient,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal, "copyToPod");
  const archive = pack();
  const parts: Buffer[] = [];
  archive.on("data", (part: unknown) => parts.push(part as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const name = relative(from, full).split(sep).join("/");
      const info = await lstat(full);
      const mode = info.mode & 0o7777;
      if (info.isSymbolicLink())
        archive.entry({ name, type: "symlink", linkname: await readlink(full), mode });
      else if (info.isDirectory()) {
        archive.entry({ name, type: "directory", mode });
        await walk(full);
      } else if (info.isFile()) archive.entry({ name, mode, mtime: info.mtime }, await readFile(full));
    }
  };
  await walk(from);
  archive.finalize();
  await done;
  const bytes = Buffer.concat(parts);
  const result = await client.run(["sh", "-c", UNPACK_SCRIPT, "sh", to, String(bytes.length)], {
    stdin: bytes,
    signal,
    operation: "copyToPod",
    path: to,
  });
  check(result.exitCode, result.stderr, "copyToPod", to, client);
}

/**
 * Copies the pod directory `from` into the host directory `to` (created if missing): `tar` in the
 * container streams it, the host unpacks entry by entry. An entry that would land outside `to`
 * (an absolute name, `..`, or a path through a link the archive made) is refused with
 * `outside_root` and nothing more is written.
 */
export async function copyFromPod(
  client: PodClient,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal, "copyFromPod");
  const process = await client.start(["sh", "-c", PACK_SCRIPT, "sh", from], {
    operation: "copyFromPod",
    path: from,
  });
  const onAbort = () => process.detach();
  signal?.addEventListener("abort", onAbort, { once: true });
  const stderr: Buffer[] = [];
  try {
    await unpackTar(
      (async function* () {
        for await (const frame of process.frames) {
          if (frame.stream === "stdout") yield frame.bytes;
          else stderr.push(Buffer.from(frame.bytes));
        }
      })(),
      to,
    );
    throwIfAborted(signal, "copyFromPod");
    const end = await process.ended;
    check(
      end.kind === "exited" ? end.exitCode : undefined,
      Buffer.concat(stderr),
      "copyFromPod",
      from,
      client,
    );
  } finally {
    signal?.removeEventListener("abort", onAbort);
    process.detach();
  }
}

/** Unpacks a tar stream into `to`, refusing any entry that would land outside it. */
export async function unpackTar(source: AsyncIterable<Uint8Array>, to: string): Promise<void> {
  const root = resolve(to);
  await mkdir(root, { recursive: true });
  const reader = extract();
  const feeding = (async () => {
    for await (const bytes of source) reader.write(bytes);
    (reader as unknown as { end(): void }).end();
  })();
  for await (const entry of reader) {
    const { name, type, mode, linkname } = entry.header;
    const target = resolve(root, name);
    if (isAbsolute(name) || (target !== root && !target.startsWith(`${root}${sep}`))) {
      entry.resume();
      throw new OperationError(
        "outside_root",
        `copyFromPod: the archive entry ${name} would land outside ${to}; nothing more was written`,
        {
          operation: "copyFromPod",
          path: to,
        },
      );
    }
    await refuseLinkedParents(root, target, name, to);
    if (type === "directory") {
      await mkdir(target, { recursive: true, mode: (mode ?? 0o755) & 0o7777 });
      entry.resume();
    } else if (type === "symlink" && linkname) {
      await symlink(linkname, target);
      entry.resume();
    } else if (type === "file") {
      const parts: Buffer[] = [];
      for await (const part of entry) parts.push(part as Buffer);
      await writeFile(target, Buffer.concat(parts), { mode: (mode ?? 0o644) & 0o7777 });
    } else entry.resume();
  }
  await feeding;
}

/** Every directory between `root` and `target` must be a real directory, not a link the archive made. */
async function refuseLinkedParents(root: string, target: string, name: string, to: string): Promise<void> {
  let at = root;
  for (const part of relative(root, target).split(sep).slice(0, -1)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      throw new OperationError(
        "outside_root",
        `copyFromPod: the archive entry ${name} goes through the link ${at}; nothing more was written`,
        {
          operation: "copyFromPod",
          path: to,
        },
      );
    }
  }
}

function check(
  exitCode: number | undefined,
  stderr: Buffer,
  operation: string,
  path: string,
  client: PodClient,
): void {
  if (exitCode === 0) return;
  if (exitCode === undefined) throw client.lost(operation, path);
  const code = CODES[exitCode];
  if (code)
    throw new OperationError(code, `${operation}: ${path}: ${code.replace("_", " ")}`, { operation, path });
  throw new OperationError(
    "unknown",
    `${operation}: tar in the pod failed (exit ${exitCode}): ${stderr.toString("utf8").trim()}`,
    {
      operation,
      path,
    },
  );
}
