import { randomBytes } from "node:crypto";
import { type ArtifactInfo, type ArtifactStore, StaleContextError } from "@tackle/extensions";
import { isOperationError, type Operations } from "@tackle/operations";

/** What the artifact store needs from an environment. */
export type ArtifactOperations = Pick<
  Operations,
  "platform" | "homeDir" | "mkdir" | "chmod" | "writeFile" | "readdir" | "stat" | "remove"
>;

/** Options of {@link createArtifactStore}. */
export interface ArtifactStoreOptions {
  /** The environment the artifacts live in (the command's output is written there, by it). */
  operations: ArtifactOperations;
  /** Session the directory belongs to (part of its name, for people looking at `/tmp`). */
  sessionId: string;
  /**
   * Directory that holds the session directories (absolute, in the environment). Default `/tmp`
   * on POSIX; required on Windows environments.
   */
  baseDir?: string;
  /**
   * Artifacts older than this are removed (checked on each `create`), and session directories
   * under `baseDir` not touched for this long are swept once per store. Default 24 hours.
   */
  retentionMs?: number;
  /** Clock, for tests of retention. */
  now?: () => number;
}

/** Default retention of artifacts: 24 hours. */
export const ARTIFACT_RETENTION_MS = 24 * 60 * 60 * 1000;

const DIR_PREFIX = "tackle-artifacts-";

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "x";
}

function join(platform: "posix" | "win32", dir: string, name: string): string {
  const sep = platform === "win32" ? "\\" : "/";
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/**
 * Creates the {@link ArtifactStore} of one session: a private directory (0700) in the
 * environment whose name carries 128 random bits, files 0600 with unguessable names, size and
 * sha256 recorded, everything removed by `dispose()` or once older than the retention time.
 *
 * @example
 * ```ts
 * const artifacts = createArtifactStore({ operations: ops, sessionId: "s1" });
 * const info = await artifacts.create({ prefix: "bash", extension: "log" });
 * ```
 */
export function createArtifactStore(options: ArtifactStoreOptions): ArtifactStore {
  const ops = options.operations;
  const retentionMs = options.retentionMs ?? ARTIFACT_RETENTION_MS;
  const now = options.now ?? Date.now;
  const records = new Map<string, ArtifactInfo>();
  let dirPromise: Promise<string> | undefined;
  let disposed = false;

  function baseDir(): string {
    if (options.baseDir) return options.baseDir;
    if (ops.platform === "win32") {
      throw new Error("createArtifactStore: baseDir is required for a Windows environment");
    }
    return "/tmp";
  }

  async function makeDirectory(): Promise<string> {
    const base = baseDir();
    const dir = join(
      ops.platform,
      base,
      `${DIR_PREFIX}${safeName(options.sessionId)}-${randomBytes(16).toString("hex")}`,
    );
    // Not recursive: the random name must not exist yet; a pre-made one (a planted directory or
    // link) makes this fail instead of being used.
    await ops.mkdir(dir);
    await ops.chmod(dir, 0o700);
    await sweepStaleSessions(base, dir).catch(() => undefined);
    return dir;
  }

  async function sweepStaleSessions(base: string, own: string): Promise<void> {
    const entries = await ops.readdir(base);
    const cutoff = now() - retentionMs;
    for (const entry of entries) {
      if (entry.type !== "directory" || !entry.name.startsWith(DIR_PREFIX)) continue;
      const path = join(ops.platform, base, entry.name);
      if (path === own) continue;
      try {
        const stat = await ops.stat(path);
        if (stat.mtimeMs < cutoff) await ops.remove(path, { recursive: true, force: true });
      } catch {
        // Another user's directory (permission denied) or already gone: not ours to judge.
      }
    }
  }

  async function sweepExpired(): Promise<void> {
    const cutoff = now() - retentionMs;
    for (const [id, info] of records) {
      if (info.createdAt >= cutoff) continue;
      records.delete(id);
      await ops.remove(info.path, { force: true }).catch(() => undefined);
    }
  }

  const store: ArtifactStore = {
    directory() {
      if (disposed)
        return Promise.reject(new StaleContextError(`the artifact store of session ${options.sessionId}`));
      dirPromise ??= makeDirectory();
      // A failed creation may be retried by the next call.
      dirPromise.catch(() => {
        dirPromise = undefined;
      });
      return dirPromise;
    },
    async create({ prefix, extension, signal }) {
      const dir = await store.directory();
      await sweepExpired();
      const id = `${safeName(prefix)}-${randomBytes(16).toString("hex")}`;
      const path = join(ops.platform, dir, extension ? `${id}.${safeName(extension)}` : id);
      await ops.writeFile(path, "", { mode: 0o600, ...(signal ? { signal } : {}) });
      await ops.chmod(path, 0o600);
      const info: ArtifactInfo = { id, path, size: 0, createdAt: now() };
      records.set(id, info);
      return { ...info };
    },
    finalize(id, info) {
      const record = records.get(id);
      if (!record) return;
      record.size = info.size;
      if (info.sha256 !== undefined) record.sha256 = info.sha256;
    },
    list() {
      return [...records.values()].map((info) => ({ ...info }));
    },
    async dispose() {
      disposed = true;
      records.clear();
      const pending = dirPromise;
      dirPromise = undefined;
      if (!pending) return;
      const dir = await pending.catch(() => undefined);
      if (dir === undefined) return;
      try {
        await ops.remove(dir, { recursive: true, force: true });
      } catch (error) {
        if (!isOperationError(error, "not_found")) throw error;
      }
    },
  };
  return store;
}
