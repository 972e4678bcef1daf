// An Operations adapter written from scratch: a POSIX-like file system held in memory, with
// directories, files, permission bits and symbolic links. It runs no commands (`exec` refuses
// with not_supported) and has no native search (the tools then walk the tree with readdir).
// It passes every file section of the conformance kit, declared with `{ exec: false }`.
import { createHash } from "node:crypto";
import {
  type CallOptions,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  isAbandonedTempFile,
  type MkdirOptions,
  type OpenReadOptions,
  OperationError,
  type OperationErrorCode,
  type Operations,
  parseTempFileName,
  type ReadFileOptions,
  type RemoveOptions,
  type TempFileOwner,
  tempFileDomain,
  tempFileName,
  type WriteFileOptions,
  writeExpectationWord,
} from "@tackle/operations";

/** True when `node` is a file whose content has the sha256 `digest` (lower-case hex). */
function holds(node: Node | undefined, digest: string): boolean {
  return node?.kind === "file" && createHash("sha256").update(node.data).digest("hex") === digest;
}

type Node =
  | { kind: "file"; data: Uint8Array; mode: number; mtimeMs: number }
  | { kind: "directory"; entries: Map<string, Node>; mode: number; mtimeMs: number }
  | { kind: "symlink"; target: string; mode: number; mtimeMs: number };
type Directory = Extract<Node, { kind: "directory" }>;

/** Where a path leads: its real parent directory, the last name, and the node there (if any). */
interface Lookup {
  parent: Directory;
  parentPath: string;
  name: string;
  node: Node | undefined;
}

/** Links followed in one lookup before it counts as a loop (Linux allows 40). */
const MAX_LINK_HOPS = 40;
/** Bytes copied per step of a write or a stream: a long write lets other calls run between steps. */
const CHUNK_BYTES = 1 << 20;

/** Options for {@link createMemoryOperations}. */
export interface MemoryOperationsOptions {
  /** Files to start with: absolute path -> content (parents are created). */
  files?: Record<string, string | Uint8Array>;
}

/**
 * An in-memory environment: POSIX paths from `/`, no commands, no native search. Every call
 * yields to the event loop once (as a real environment's I/O would) and honours its signal.
 */
export function createMemoryOperations(options: MemoryOperationsOptions = {}): Operations {
  const now = () => Date.now();
  const directory = (): Directory => ({ kind: "directory", entries: new Map(), mode: 0o755, mtimeMs: now() });
  const root = directory();
  // Temp files of writes name their writer: this store is one "process" of its own table.
  const owner: TempFileOwner = {
    domain: tempFileDomain(`memory ${Math.random()}`, "store"),
    pid: 1,
    start: String(now()),
  };

  function fail(code: OperationErrorCode, operation: string, path: string, why: string): never {
    throw new OperationError(code, `${operation} ${path}: ${why}`, { operation, path });
  }

  for (const [path, content] of Object.entries(options.files ?? {})) {
    const parts = path.split("/").filter(Boolean);
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      const next = dir.entries.get(part) ?? directory();
      if (next.kind !== "directory") throw new TypeError(`files: ${path} goes through a file`);
      dir.entries.set(part, next);
      dir = next;
    }
    const data = typeof content === "string" ? new TextEncoder().encode(content) : content.slice();
    dir.entries.set(parts[parts.length - 1] ?? "", { kind: "file", data, mode: 0o644, mtimeMs: now() });
  }

  /** Every call yields to the event loop once, as a real environment would, and honours its signal. */
  async function begin(operation: string, path: string, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) fail("aborted", operation, path, "aborted");
    await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) fail("aborted", operation, path, "aborted");
    if (path.includes("\0")) fail("invalid_argument", operation, path, "the path holds a NUL byte");
    if (!path.startsWith("/")) fail("invalid_argument", operation, path, "the path is not absolute");
  }

  /** Resolves `path`, following links on the way (and the last one too when `followLast`). */
  function lookup(operation: string, path: string, followLast: boolean): Lookup {
    const pending = path.split("/").filter((part) => part !== "" && part !== ".");
    let chain: Directory[] = [root];
    let names: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      const current = chain[chain.length - 1] as Directory;
      if (part === "..") {
        if (chain.length > 1) {
          chain = chain.slice(0, -1);
          names = names.slice(0, -1);
        }
        continue;
      }
      const node = current.entries.get(part);
      const last = pending.length === 0;
      if (node?.kind === "symlink" && (!last || followLast)) {
        if (++hops > MAX_LINK_HOPS) fail("not_found", operation, path, "too many levels of symbolic links");
        const target = (node as { target: string }).target;
        if (target.startsWith("/")) {
          chain = [root];
          names = [];
        }
        pending.unshift(...target.split("/").filter((p) => p !== "" && p !== "."));
        continue;
      }
      if (last) return { parent: current, parentPath: `/${names.join("/")}`, name: part, node };
      if (node === undefined) fail("not_found", operation, path, "no such file or directory");
      if (node?.kind !== "directory")
        fail("not_directory", operation, path, "a part of the path is not a directory");
      chain = [...chain, node as Directory];
      names = [...names, part];
    }
    // The path named a directory reached by its components alone (the root, or one after `..`).
    const dir = chain[chain.length - 1] as Directory;
    const parent = (chain[chain.length - 2] ?? root) as Directory;
    const name = names[names.length - 1] ?? "";
    return { parent, parentPath: `/${names.slice(0, -1).join("/")}`, name, node: dir };
  }

  const realPathOf = (found: Lookup) =>
    found.name === "" ? "/" : `${found.parentPath === "/" ? "" : found.parentPath}/${found.name}`;

  function existing(operation: string, path: string, followLast: boolean): Lookup & { node: Node } {
    const found = lookup(operation, path, followLast);
    if (found.node === undefined) fail("not_found", operation, path, "no such file or directory");
    return found as Lookup & { node: Node };
  }

  function fileAt(operation: string, path: string): Uint8Array {
    const { node } = existing(operation, path, true);
    if (node.kind === "directory") fail("is_directory", operation, path, "is a directory");
    return (node as { data: Uint8Array }).data;
  }

  const statOf = (node: Node): FileStat => ({
    type: node.kind,
    size: node.kind === "file" ? node.data.length : node.kind === "symlink" ? node.target.length : 4096,
    mtimeMs: node.mtimeMs,
    mode: node.mode,
  });

  /** Removes the temp files of writes that are gone (this store's, or foreign ones an hour old). */
  function sweep(dir: Directory): void {
    for (const [name, node] of dir.entries) {
      const parsed = parseTempFileName(name);
      if (!parsed) continue;
      const live = parsed.owner.pid === owner.pid ? owner.start : undefined;
      const facts = { domain: owner.domain, startOfPid: live, ageMs: now() - node.mtimeMs };
      if (isAbandonedTempFile(parsed.owner, facts)) dir.entries.delete(name);
    }
  }

  return {
    id: "memory",
    platform: "posix",
    homeDir: "/home/user",

    async stat(path, options?: CallOptions) {
      await begin("stat", path, options?.signal);
      return statOf(existing("stat", path, true).node);
    },
    async lstat(path, options?: CallOptions) {
      await begin("lstat", path, options?.signal);
      return statOf(existing("lstat", path, false).node);
    },
    async realpath(path, options?: CallOptions) {
      await begin("realpath", path, options?.signal);
      return realPathOf(existing("realpath", path, true));
    },
    async readlink(path, options?: CallOptions) {
      await begin("readlink", path, options?.signal);
      const { node } = existing("readlink", path, false);
      if (node.kind !== "symlink") fail("invalid_argument", "readlink", path, "not a symbolic link");
      return (node as { target: string }).target;
    },
    async readFile(path, options?: ReadFileOptions) {
      await begin("readFile", path, options?.signal);
      const data = fileAt("readFile", path);
      if (options?.maxBytes !== undefined && data.length > options.maxBytes) {
        fail("too_large", "readFile", path, `${data.length} bytes, more than ${options.maxBytes}`);
      }
      return data.slice();
    },
    openRead(path, options?: OpenReadOptions) {
      return (async function* () {
        await begin("openRead", path, options?.signal);
        const data = fileAt("openRead", path);
        for (let at = options?.start ?? 0; at < data.length; at += CHUNK_BYTES) {
          yield data.slice(at, at + CHUNK_BYTES);
          if (options?.signal?.aborted) fail("aborted", "openRead", path, "aborted");
        }
      })();
    },
    async writeFile(path, content, options?: WriteFileOptions) {
      await begin("writeFile", path, options?.signal);
      const condition = writeExpectationWord(options?.expect, path);
      const found = lookup("writeFile", path, true);
      if (found.node?.kind === "directory") fail("is_directory", "writeFile", path, "is a directory");
      if (options?.within !== undefined) {
        const within = realPathOf(existing("writeFile", options.within, true));
        const inside = found.parentPath === within || found.parentPath.startsWith(`${within}/`);
        if (!inside) fail("outside_root", "writeFile", path, `it lands outside ${options.within}`);
      }
      const data = typeof content === "string" ? new TextEncoder().encode(content) : content.slice();
      sweep(found.parent);
      // Atomic: the bytes go to a temp file beside the target, which then takes the target's place.
      const temp = tempFileName(found.name, owner);
      const partial: Node = { kind: "file", data: new Uint8Array(0), mode: 0o600, mtimeMs: now() };
      found.parent.entries.set(temp, partial);
      try {
        for (let at = 0; at < data.length; at += CHUNK_BYTES) {
          partial.data = data.subarray(0, Math.min(data.length, at + CHUNK_BYTES));
          partial.mtimeMs = now();
          await new Promise((resolve) => setImmediate(resolve));
          if (options?.signal?.aborted) fail("aborted", "writeFile", path, "aborted");
        }
      } catch (error) {
        found.parent.entries.delete(temp);
        throw error;
      }
      found.parent.entries.delete(temp);
      // `expect`: compared with what the target holds now, with no await between the compare and
      // the swap below, so no other call can change the file in between (a real file system
      // needs the write lock of @tackle/operations for that).
      const current = found.parent.entries.get(found.name);
      if (condition === "-" ? current !== undefined : condition !== "" && !holds(current, condition)) {
        fail("changed", "writeFile", path, "no longer holds what expect said");
      }
      const mode = found.node?.mode ?? options?.mode ?? 0o644;
      found.parent.entries.set(found.name, { kind: "file", data, mode, mtimeMs: now() });
    },
    async mkdir(path, options?: MkdirOptions) {
      await begin("mkdir", path, options?.signal);
      if (options?.recursive) {
        const parts = path.split("/").filter(Boolean);
        for (let depth = 1; depth <= parts.length; depth++) {
          const prefix = `/${parts.slice(0, depth).join("/")}`;
          const found = lookup("mkdir", prefix, true);
          if (found.node === undefined) found.parent.entries.set(found.name, directory());
          else if (found.node.kind !== "directory") fail("exists", "mkdir", path, `${prefix} is a file`);
        }
        return;
      }
      const found = lookup("mkdir", path, false);
      if (found.node !== undefined) fail("exists", "mkdir", path, "already exists");
      found.parent.entries.set(found.name, directory());
    },
    async readdir(path, options?: CallOptions) {
      await begin("readdir", path, options?.signal);
      const { node } = existing("readdir", path, true);
      if (node.kind !== "directory") fail("not_directory", "readdir", path, "not a directory");
      return [...(node as Directory).entries].map(([name, entry]): DirEntry => ({ name, type: entry.kind }));
    },
    async remove(path, options?: RemoveOptions) {
      await begin("remove", path, options?.signal);
      const found = lookup("remove", path, false);
      if (found.node === undefined) {
        if (options?.force) return;
        fail("not_found", "remove", path, "no such file or directory");
      }
      const node = found.node as Node;
      if (node.kind === "directory" && node.entries.size > 0 && !options?.recursive) {
        fail("exists", "remove", path, "the directory is not empty");
      }
      found.parent.entries.delete(found.name);
    },
    async symlink(target, path, options?: CallOptions) {
      await begin("symlink", path, options?.signal);
      const found = lookup("symlink", path, false);
      if (found.node !== undefined) fail("exists", "symlink", path, "already exists");
      found.parent.entries.set(found.name, { kind: "symlink", target, mode: 0o777, mtimeMs: now() });
    },
    async rename(from, to, options?: CallOptions) {
      await begin("rename", from, options?.signal);
      await begin("rename", to, undefined);
      const source = existing("rename", from, false);
      const target = lookup("rename", to, false);
      source.parent.entries.delete(source.name);
      target.parent.entries.set(target.name, source.node);
    },
    async chmod(path, mode, options?: CallOptions) {
      await begin("chmod", path, options?.signal);
      existing("chmod", path, true).node.mode = mode & 0o7777;
    },
    async exec(command: string, options: ExecOptions): Promise<ExecResult> {
      await begin("exec", options.cwd, options.signal);
      return fail("not_supported", "exec", options.cwd, `this environment runs no commands (${command})`);
    },
    // No `search`: grep and find walk the tree with readdir.
  };
}
