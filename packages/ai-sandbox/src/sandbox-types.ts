/**
 * The AI SDK's sandbox session types under short names. `ai` 7 exports them with the
 * `Experimental_` prefix: the interface may change in its patch releases, so this package names
 * the `ai` range it was built and tested against (its peer dependency).
 */
import type {
  Experimental_SandboxDirectoryEntry,
  Experimental_SandboxFileStat,
  Experimental_SandboxProcess,
  Experimental_SandboxSession,
} from "ai";

/** `Experimental_SandboxSession` of `ai` 7: files, `run` and `spawn` in one environment. */
export type SandboxSession = Experimental_SandboxSession;
/** A process started by `SandboxSession.spawn`. */
export type SandboxProcess = Experimental_SandboxProcess;
/** What `SandboxSession.stat` resolves to. */
export type SandboxFileStat = Experimental_SandboxFileStat;
/** One entry of `SandboxSession.listDirectory`. */
export type SandboxDirectoryEntry = Experimental_SandboxDirectoryEntry;
/** The options of `SandboxSession.run`. */
export type SandboxRunOptions = Parameters<SandboxSession["run"]>[0];
/** What `SandboxSession.run` resolves to. */
export type SandboxRunResult = Awaited<ReturnType<SandboxSession["run"]>>;
/** The options of `SandboxSession.spawn`. */
export type SandboxSpawnOptions = Parameters<SandboxSession["spawn"]>[0];
/** The options of `SandboxSession.readTextFile`. */
export type SandboxReadTextFileOptions = Parameters<SandboxSession["readTextFile"]>[0];

/**
 * A session as older `ai` 7 releases and their adapters define it: `stat`, `listDirectory` and
 * `deleteFile` came later (the AI SDK's just-bash adapter on npm has none of them). The
 * Operations adapter accepts either and uses the three when they are there.
 */
export type SandboxSessionLike = Omit<SandboxSession, "stat" | "listDirectory" | "deleteFile" | "spawn"> &
  Partial<Pick<SandboxSession, "stat" | "listDirectory" | "deleteFile">> & {
    readonly spawn: (options: SandboxSpawnOptions) => PromiseLike<SandboxProcess>;
  };
