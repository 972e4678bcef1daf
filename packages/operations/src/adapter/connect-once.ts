import { raceAbort } from "../errors.js";
import type { CallOptions, Operations } from "../types.js";

/**
 * A remote adapter's lazy connection: created synchronously, connected by the first call (or by
 * `connect()`), once; a failed attempt is forgotten, so the next call tries again (the container
 * or pod may have been started meanwhile). Every call waits for it, bounded by its own signal.
 *
 * @example
 * ```ts
 * const connection = new ConnectOnce(async () => probeTheEnvironment());
 * const stat = connection.after(files.stat.bind(files));
 * const connect = (options?: CallOptions) => connection.ready(options?.signal);
 * ```
 */
export class ConnectOnce<T> {
  private connecting: Promise<T> | undefined;
  private facts: T | undefined;

  /** `learn` connects and returns what the adapter needs to know (home directory, tools...). */
  constructor(private readonly learn: (signal: AbortSignal | undefined) => Promise<T>) {}

  /** What `learn` returned, once connected. */
  get known(): T | undefined {
    return this.facts;
  }

  /** Connects if not yet connected; `signal` bounds this caller's wait, not the attempt. */
  ready(signal: AbortSignal | undefined): Promise<T> {
    if (this.facts !== undefined) return Promise.resolve(this.facts);
    this.connecting ??= this.learn(signal).then(
      (facts) => {
        this.facts = facts;
        return facts;
      },
      (error: unknown) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return raceAbort(this.connecting, signal, "connect");
  }

  /** `call` once connected (the signal of its last argument, a `CallOptions`, bounds the wait). */
  after<F extends (...args: any[]) => Promise<unknown>>(call: F): F {
    return (async (...args: Parameters<F>) => {
      if (this.facts === undefined)
        await this.ready((args[args.length - 1] as CallOptions | undefined)?.signal);
      return call(...args);
    }) as F;
  }
}

/** The file methods every remote adapter waits to connect for. */
type FileMethodName =
  | "stat"
  | "lstat"
  | "realpath"
  | "readlink"
  | "readFile"
  | "openRead"
  | "writeFile"
  | "mkdir"
  | "readdir"
  | "remove"
  | "symlink"
  | "rename"
  | "chmod";

/** An adapter's file methods (an object with them, such as its files class). */
export type FileMethods = Pick<Operations, FileMethodName> & Required<Pick<Operations, "listTree">>;

/**
 * `files`' methods, each waiting for `connection` first (a stream from `openRead` starts once
 * connected), bound to `files`.
 */
export function filesAfterConnect(files: FileMethods, connection: ConnectOnce<unknown>): FileMethods {
  return {
    stat: connection.after(files.stat.bind(files)),
    lstat: connection.after(files.lstat.bind(files)),
    realpath: connection.after(files.realpath.bind(files)),
    readlink: connection.after(files.readlink.bind(files)),
    readFile: connection.after(files.readFile.bind(files)),
    openRead: (path, callOptions) => {
      if (connection.known !== undefined) return files.openRead(path, callOptions);
      return (async function* () {
        await connection.ready(callOptions?.signal);
        yield* files.openRead(path, callOptions);
      })();
    },
    writeFile: connection.after(files.writeFile.bind(files)),
    mkdir: connection.after(files.mkdir.bind(files)),
    readdir: connection.after(files.readdir.bind(files)),
    listTree: connection.after(files.listTree.bind(files)),
    remove: connection.after(files.remove.bind(files)),
    symlink: connection.after(files.symlink.bind(files)),
    rename: connection.after(files.rename.bind(files)),
    chmod: connection.after(files.chmod.bind(files)),
  };
}
