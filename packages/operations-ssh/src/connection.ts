import { OperationError, raceAbort, throwIfAborted } from "@tackle/operations";
import { settleWithin } from "@tackle/operations/adapter";
import type { Client, ClientChannel, ConnectConfig, SFTPWrapper } from "ssh2";
import ssh2 from "ssh2";
import { hostKeyError, SshConnectionError, type SshEndpoint } from "./errors.js";
import type { HostKeyProblem } from "./host-key.js";

/** What a connection needs beyond ssh2's own config: the host key policy. */
export interface ConnectionSettings {
  config: ConnectConfig;
  /** Loads the host key policy once (async: it may read known_hosts). */
  hostKeyChecker: () => Promise<(keyBlob: Uint8Array) => HostKeyProblem | undefined>;
  maxChannels: number;
  maxHelperChannels: number;
  /** What dropped connections leave behind, cleaned up through each new session (`Leftovers`). */
  leftovers: LeftoverRegistry;
}

/**
 * The record of what a dropped connection left on the remote host (temp files of writes it cut
 * off, commands whose end it kept the adapter from seeing) and its cleanup through the next
 * session. `Leftovers` implements it; the connection only calls it, so it depends on nothing of
 * what the cleanup runs.
 */
export interface LeftoverRegistry {
  /** A write created this temp file; until `removeTempFile`, a reconnect removes it. */
  addTempFile(path: string): void;
  /** The temp file was renamed or removed by its write. */
  removeTempFile(path: string): void;
  /** A command whose connection dropped before its end was seen (`marker` finds all its processes). */
  addCommand(marker: string, pgid: number): void;
  /** Starts the cleanup through a new session, in the background. */
  cleanUp(session: Session): void;
  /** Resolves when every cleanup started so far has finished. */
  settled(): Promise<void>;
}

/**
 * One live SSH connection. Calls in flight subscribe to its loss with {@link Session.onLost}, so
 * they fail with `connection_lost` instead of hanging. (A subscription, not `.then` on a shared
 * promise: that promise lives as long as the connection, and every call would leave a callback on
 * it for that long.)
 */
export class Session {
  isLost = false;
  /** Why the connection ended, once it has. */
  lostError: OperationError | undefined;
  private readonly lostListeners = new Set<(error: OperationError) => void>();
  private sftpChannel: Promise<SFTPWrapper> | undefined;

  constructor(
    readonly client: Client,
    /** The adapter's helper channel slots (see {@link SshConnection.helperSlots}). */
    readonly helperSlots: ChannelSlots,
  ) {}

  /** Called once when the client closes. */
  close(cause?: unknown): void {
    if (this.isLost) return;
    this.isLost = true;
    const error = new SshConnectionError(
      "connection_lost",
      "SSH connection lost",
      cause === undefined ? {} : { cause },
    );
    this.lostError = error;
    for (const listener of this.lostListeners) listener(error);
    this.lostListeners.clear();
  }

  /** Calls `listener` when the connection ends (at once if it has). Returns the unsubscribe. */
  onLost(listener: (error: OperationError) => void): () => void {
    if (this.lostError) {
      listener(this.lostError);
      return () => {};
    }
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Resolves when the connection has ended (used where waiting is bounded anyway). */
  whenLost(): Promise<OperationError> {
    return new Promise((resolve) => this.onLost(resolve));
  }

  /** The SFTP channel, opened on first use and reopened if the server closed it. */
  sftp(): Promise<SFTPWrapper> {
    if (!this.sftpChannel) {
      const opening = new Promise<SFTPWrapper>((resolve, reject) => {
        this.client.sftp((error, sftp) => {
          if (error)
            return reject(
              new OperationError("not_supported", "SFTP subsystem unavailable", { cause: error }),
            );
          sftp.once("close", () => {
            if (this.sftpChannel === opening) this.sftpChannel = undefined;
          });
          resolve(sftp);
        });
      });
      this.sftpChannel = opening;
      opening.catch(() => {
        if (this.sftpChannel === opening) this.sftpChannel = undefined;
      });
    }
    return this.sftpChannel;
  }

  /**
   * Opens an exec channel for `command` (the remote login shell runs it with `-c`) and hands it
   * to `attach` synchronously. That matters: ssh2 parses a whole TCP read at once, so for a fast
   * command the channel's success, output, exit status and close can all arrive in the same
   * read. Listeners added after an `await` would miss `exit` and `close` and wait forever.
   */
  async exec<T>(command: string, attach: (channel: ClientChannel) => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.openExec(command, attach);
      } catch (error) {
        // A server with a lower session limit than ours refuses the channel ("open failed"):
        // another channel of ours will close soon, so try again a few times before giving up.
        if (this.isLost || attempt >= OPEN_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
      }
    }
  }

  /**
   * A stream to a unix socket on the remote host (OpenSSH `direct-streamlocal` forwarding, as
   * `ssh -L` with a socket path does). The server connects as the login user.
   */
  openUnixSocket(path: string): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      this.client.openssh_forwardOutStreamLocal(path, (error, channel) => {
        if (!error) return resolve(channel);
        if (this.isLost) {
          return reject(new SshConnectionError("connection_lost", "SSH connection lost", { cause: error }));
        }
        const reason = (error as Error & { reason?: unknown }).reason;
        reject(
          reason === CHANNEL_OPEN_PROHIBITED
            ? new OperationError(
                "permission_denied",
                `The SSH server refuses to forward to the unix socket ${path} (sshd_config AllowStreamLocalForwarding).`,
                { cause: error, path, operation: "openUnixSocket" },
              )
            : new OperationError(
                "not_found",
                `Nothing the remote user can connect to at ${path}: the socket does not exist, or it refuses the connection.`,
                { cause: error, path, operation: "openUnixSocket" },
              ),
        );
      });
    });
  }

  private openExec<T>(command: string, attach: (channel: ClientChannel) => T): Promise<T> {
    return new Promise((resolve, reject) => {
      this.client.exec(command, (error, channel) => {
        if (error) {
          reject(
            this.isLost
              ? new SshConnectionError("connection_lost", "SSH connection lost", { cause: error })
              : new OperationError("unknown", `could not open an exec channel: ${error.message}`, {
                  cause: error,
                }),
          );
        } else {
          resolve(attach(channel));
        }
      });
    });
  }
}

/** SSH_OPEN_ADMINISTRATIVELY_PROHIBITED (RFC 4254): the server does not allow this kind of channel. */
const CHANNEL_OPEN_PROHIBITED = 1;

/** How long `dispose` waits for the server to close the connection before destroying it. */
const CLOSE_WAIT_MS = 2000;

/** Attempts to open a channel before an `exec` fails. */
const OPEN_RETRIES = 6;

/** Counts channels of one kind so the server's per-connection session limit is never exceeded. */
export class ChannelSlots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}

  async acquire(signal: AbortSignal | undefined): Promise<() => void> {
    // An abort event fires only once: a signal that has already fired would never wake the wait.
    throwIfAborted(signal, "exec");
    if (this.used >= this.max) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new OperationError("aborted", "exec aborted", { operation: "exec", cause: signal?.reason }));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiting.push(wake);
      });
    } else {
      this.used++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
}

/**
 * The adapter's one connection: opened lazily by the first call, reused by every call, and
 * reopened by the next call after it dropped.
 */
export class SshConnection {
  private current: Promise<Session> | undefined;
  private disposed = false;
  /** Channels for commands (`exec`, remote search). */
  readonly slots: ChannelSlots;
  /**
   * Channels for short helpers (kill scripts, `rm -rf`, probes), counted apart from commands so
   * a command waiting for its kill script can never wait on another command's slot.
   */
  readonly helperSlots: ChannelSlots;
  /** Called with each new session (e.g. to probe the remote for ripgrep). */
  onConnect: ((session: Session) => Promise<void>) | undefined;
  /** What dropped connections left behind; cleaned up through each new session. */
  readonly leftovers: LeftoverRegistry;

  constructor(private readonly settings: ConnectionSettings) {
    this.slots = new ChannelSlots(settings.maxChannels);
    this.helperSlots = new ChannelSlots(settings.maxHelperChannels);
    this.leftovers = settings.leftovers;
  }

  /** The live session, connecting when there is none. Rejects with an {@link SshConnectionError}. */
  async session(signal?: AbortSignal, operation = "connect"): Promise<Session> {
    throwIfAborted(signal, operation);
    if (this.disposed)
      throw new OperationError("connection_lost", "SSH operations were disposed", { operation });
    if (this.current) {
      const existing = await raceAbort(this.current, signal, operation);
      if (!existing.isLost) return existing;
      this.current = undefined;
    }
    if (!this.current) {
      const connecting = this.connect();
      this.current = connecting;
      connecting.catch(() => {
        if (this.current === connecting) this.current = undefined;
      });
    }
    return raceAbort(this.current, signal, operation);
  }

  private async connect(): Promise<Session> {
    const check = await this.settings.hostKeyChecker();
    const client = new ssh2.Client();
    let refusedKey: HostKeyProblem | undefined;
    const session = new Session(client, this.helperSlots);
    await new Promise<void>((resolve, reject) => {
      let ready = false;
      client.on("ready", () => {
        ready = true;
        resolve();
      });
      client.on("error", (error: Error & { level?: string }) => {
        if (ready) {
          session.close(error);
          return;
        }
        reject(connectError(error, refusedKey, this.settings.config));
      });
      client.on("close", () => {
        session.close();
        if (!ready)
          reject(
            connectError(
              new Error("connection closed during the handshake"),
              refusedKey,
              this.settings.config,
            ),
          );
      });
      client.connect({
        ...this.settings.config,
        hostVerifier: (key: Buffer) => {
          refusedKey = check(key);
          return refusedKey === undefined;
        },
      });
      // Small requests (an SFTP stat, a channel open) must not wait for Nagle's delayed-ACK dance:
      // without this every round trip on loopback costs ~40 ms.
      client.setNoDelay(true);
    });
    if (this.disposed) {
      client.end();
      throw new OperationError("connection_lost", "SSH operations were disposed");
    }
    try {
      await this.onConnect?.(session);
    } catch (error) {
      client.end();
      throw error;
    }
    this.leftovers.cleanUp(session);
    return session;
  }

  /** Ends the connection and waits for it to close. Later calls reject. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.leftovers.settled();
    const session = await this.current?.catch(() => undefined);
    this.current = undefined;
    if (!session || session.isLost) return;
    const closed = session.whenLost();
    session.client.end();
    await settleWithin(closed, CLOSE_WAIT_MS);
    session.client.destroy();
  }
}

/** Errno codes of a name that does not resolve. */
const UNKNOWN_NAME = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL"]);

/**
 * The typed error of a connection that never became ready, by ssh2's `level` and the socket's
 * errno (never by message text). Each message names host and port and the next step.
 */
function connectError(
  error: Error & { level?: string; code?: string },
  refusedKey: HostKeyProblem | undefined,
  config: ConnectConfig,
): SshConnectionError {
  const endpoint: SshEndpoint = {
    host: config.host ?? "localhost",
    port: config.port ?? 22,
    username: config.username ?? "",
  };
  const where = `${endpoint.host}:${endpoint.port}`;
  const cause = { cause: error, endpoint };
  if (refusedKey) return hostKeyError(refusedKey, endpoint);
  if (error.level === "client-authentication") {
    return new SshConnectionError(
      "auth_failed",
      `SSH login as ${endpoint.username} on ${where} refused: the server accepted none of the offered credentials. Check the username, privateKey (and passphrase) or agent, and the remote authorized_keys.`,
      cause,
    );
  }
  if (error.level === "client-timeout") {
    const timeoutMs = config.readyTimeout ?? 20_000;
    return new SshConnectionError(
      "connect_timeout",
      `No SSH handshake with ${where} within ${timeoutMs / 1000} s. Check that the host is up and that port ${endpoint.port} is its SSH server, or allow longer with readyTimeoutMs.`,
      { ...cause, timeoutMs },
    );
  }
  if (error.code === "ECONNREFUSED") {
    return new SshConnectionError(
      "connect_refused",
      `SSH connection to ${where} refused: nothing listens on port ${endpoint.port}. Check the host and port, and that the SSH server runs.`,
      cause,
    );
  }
  if (error.code !== undefined && UNKNOWN_NAME.has(error.code)) {
    return new SshConnectionError(
      "host_not_found",
      `Unknown host name "${endpoint.host}" (${error.code}): it does not resolve. Check the spelling, or use the host's IP address.`,
      cause,
    );
  }
  return new SshConnectionError(
    "connect_failed",
    `SSH connection to ${where} failed (${error.code ?? error.message}). Check the host and port, and the network between.`,
    cause,
  );
}

/** Resolves like `promise`, or rejects with `connection_lost` when the session drops first. */
export function raceLost<T>(
  promise: Promise<T>,
  session: Session,
  operation: string,
  path?: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = session.onLost((lost) =>
      reject(
        new SshConnectionError(
          "connection_lost",
          `${operation} failed: SSH connection lost${path ? `: ${path}` : ""}`,
          {
            cause: lost,
          },
        ),
      ),
    );
    promise.then(
      (value) => {
        unsubscribe();
        resolve(value);
      },
      (error: unknown) => {
        unsubscribe();
        reject(error);
      },
    );
  });
}
