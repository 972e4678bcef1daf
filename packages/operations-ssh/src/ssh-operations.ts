import type { Duplex } from "node:stream";
import { type ExecResult, OperationError, type Operations, type SearchOperations } from "@tackle/operations";
import {
  checkAdapterOptions,
  EXEC_DEFAULTS,
  EXEC_OPTION_SPEC,
  type OptionSpec,
  RunningCommands,
} from "@tackle/operations/adapter";
import type { ConnectConfig } from "ssh2";
import { raceLost, SshConnection } from "./connection.js";
import { execRemote } from "./exec.js";
import { createFileMethods } from "./files.js";
import { makeHostKeyChecker } from "./host-key.js";
import { Leftovers } from "./leftovers.js";
import type { SshOperationsOptions } from "./options.js";
import { privateKeyProblem } from "./private-key.js";
import { openRead, readFile } from "./read-file.js";
import { createRemoteSearch, remoteHasRipgrep } from "./remote-search.js";
import { call } from "./sftp-call.js";
import { createTreeListing } from "./tree-listing.js";
import { writeFile } from "./write-file.js";

/** Defaults of {@link SshOperationsOptions}. */
export const SSH_DEFAULTS = {
  port: 22,
  keepaliveIntervalMs: 15_000,
  keepaliveCountMax: 3,
  readyTimeoutMs: 20_000,
  maxChannels: 6,
  maxHelperChannels: 3,
  killGraceMs: EXEC_DEFAULTS.killGraceMs,
  idleGraceMs: EXEC_DEFAULTS.idleGraceMs,
} as const;

const isObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What each option of {@link SshOperationsOptions} must be. */
const OPTION_SPEC = {
  ...EXEC_OPTION_SPEC,
  host: "non-empty-string",
  port: {
    expected: "a port number (1 to 65535)",
    test: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535,
  },
  username: "non-empty-string",
  privateKey: {
    expected: "key text or bytes",
    test: (value) => typeof value === "string" || value instanceof Uint8Array,
  },
  passphrase: "string",
  agent: {
    expected: "a socket path or true",
    test: (value) => value === true || (typeof value === "string" && value !== ""),
  },
  hostKey: {
    expected: "an object ({ knownHostsPath }, { fingerprint } or { insecureAcceptAny: true })",
    test: isObject,
  },
  sandbox: { expected: "an options object", test: isObject },
  root: "non-empty-string",
  keepaliveIntervalMs: "non-negative-number",
  keepaliveCountMax: "positive-integer",
  readyTimeoutMs: "positive-number",
  maxChannels: "positive-integer",
  ripgrep: {
    expected: '"auto", a path or false',
    test: (value) => value === false || (typeof value === "string" && value !== ""),
  },
} as const satisfies OptionSpec;

/**
 * The ripgrep probe runs through the remote login shell; a slow profile must not hold the
 * connection hostage. No answer in time counts as "no rg" (the tools' portable search then runs).
 */
const PROBE_TIMEOUT_MS = 5000;

function probeWithin(probe: Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    probe.then(
      (found) => {
        clearTimeout(timer);
        resolve(found);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

/** An `Operations` on a remote host, plus connection control. */
export interface SshOperations extends Operations {
  /** `options.root`: the remote workspace directory a host chose, if any. */
  readonly root: string | undefined;
  /**
   * Connects now (otherwise the first call does), learns the home directory and whether the
   * remote has ripgrep. Call it before handing the adapter to tools so `search` is decided.
   */
  connect(options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * A duplex stream to a unix socket on the remote host, over this adapter's connection (OpenSSH
   * streamlocal forwarding): for example the Docker engine's socket, to reach the engine over SSH.
   * Rejects with `not_found` when nothing listens there and `permission_denied` when the server
   * forbids socket forwarding.
   *
   * @example
   * ```ts
   * const engine = await ops.openUnixSocket("/var/run/docker.sock");
   * ```
   */
  openUnixSocket(path: string, options?: { signal?: AbortSignal }): Promise<Duplex>;
  /** Closes every channel and the connection; running commands are ended first. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Operations over one SSH connection: SFTP for files, exec channels for commands, remote
 * ripgrep for search when the host has it. Nothing connects until the first call.
 *
 * @example
 * ```ts
 * const ops = createSshOperations({ host: "devbox", username: "me",
 *   privateKey: readFileSync("/home/me/.ssh/id_ed25519"), hostKey: {} });
 * await ops.connect();
 * const text = new TextDecoder().decode(await ops.readFile("/etc/hostname"));
 * await ops.dispose();
 * ```
 */
export function createSshOperations(options: SshOperationsOptions): SshOperations {
  checkAdapterOptions("createSshOperations", options, OPTION_SPEC);
  for (const name of ["host", "username"] as const) {
    if (options[name] === undefined) {
      throw new OperationError("invalid_argument", `createSshOperations: option ${name} is required`, {
        operation: "createSshOperations",
      });
    }
  }
  const agentSocket = options.agent === true ? process.env.SSH_AUTH_SOCK : options.agent;
  if (options.privateKey === undefined && !agentSocket) {
    // Fail here, with the fix, rather than as a vague auth error on the first call.
    throw new OperationError(
      "invalid_argument",
      options.agent === true
        ? "createSshOperations: agent: true but SSH_AUTH_SOCK is not set; pass the agent socket path or a privateKey"
        : "createSshOperations: pass privateKey or agent",
    );
  }
  if (options.privateKey !== undefined) {
    // An encrypted key without its passphrase, or a wrong passphrase: fail here, with the fix.
    const problem = privateKeyProblem(options.privateKey, options.passphrase);
    if (problem) throw problem;
  }
  const port = options.port ?? SSH_DEFAULTS.port;
  const config: ConnectConfig = {
    host: options.host,
    port,
    username: options.username,
    keepaliveInterval: options.keepaliveIntervalMs ?? SSH_DEFAULTS.keepaliveIntervalMs,
    keepaliveCountMax: options.keepaliveCountMax ?? SSH_DEFAULTS.keepaliveCountMax,
    readyTimeout: options.readyTimeoutMs ?? SSH_DEFAULTS.readyTimeoutMs,
    ...(options.privateKey === undefined
      ? {}
      : {
          privateKey:
            typeof options.privateKey === "string" ? options.privateKey : Buffer.from(options.privateKey),
        }),
    ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    ...(agentSocket ? { agent: agentSocket } : {}),
  };
  const connection = new SshConnection({
    config,
    // Read again on every connect: a key trusted after a refusal works on the next call.
    hostKeyChecker: () => makeHostKeyChecker(options.hostKey, options.host, port),
    maxChannels: options.maxChannels ?? SSH_DEFAULTS.maxChannels,
    maxHelperChannels: SSH_DEFAULTS.maxHelperChannels,
    leftovers: new Leftovers(options.killGraceMs ?? SSH_DEFAULTS.killGraceMs),
  });
  const execConfig = {
    killGraceMs: options.killGraceMs ?? SSH_DEFAULTS.killGraceMs,
    idleGraceMs: options.idleGraceMs ?? SSH_DEFAULTS.idleGraceMs,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  };
  const running = new RunningCommands<ExecResult>();
  const rg = options.ripgrep ?? "auto";
  const rgPath = rg === false ? undefined : rg === "auto" ? "rg" : rg;
  const remoteSearch = rgPath === undefined ? undefined : createRemoteSearch(connection, rgPath);
  // A given path is trusted as is; "auto" is decided by a probe on each new connection.
  let hasRipgrep = rg !== false && rg !== "auto";
  let homeDir: string | undefined;

  connection.onConnect = async (session) => {
    // Neither answer is worth failing the connection over: without SFTP, commands still work.
    const [home, rgFound] = await Promise.all([
      session
        .sftp()
        .then((sftp) => call<string>((cb) => sftp.realpath(".", cb)))
        .catch(() => undefined),
      rg === "auto"
        ? probeWithin(remoteHasRipgrep(session, "rg"), PROBE_TIMEOUT_MS)
        : Promise.resolve(hasRipgrep),
    ]);
    homeDir = home;
    hasRipgrep = rgFound;
  };

  const files = createFileMethods(connection);
  let disposed: Promise<void> | undefined;

  return {
    id: `ssh://${options.username}@${options.host}:${port}`,
    platform: "posix",
    environment: { kind: "ssh", host: options.host, port, user: options.username },
    root: options.root,
    get homeDir() {
      return homeDir;
    },
    get search(): SearchOperations | undefined {
      return hasRipgrep ? remoteSearch : undefined;
    },
    ...files,
    readFile: (path, opts) => readFile(connection, path, opts),
    openRead: (path, opts) => openRead(connection, path, opts),
    writeFile: (path, data, opts) => writeFile(connection, path, data, opts),
    exec: (command, opts) =>
      running.run(opts.signal, (signal) => execRemote(connection, command, { ...opts, signal }, execConfig)),
    listTree: createTreeListing(connection),
    async connect(opts) {
      await connection.session(opts?.signal);
    },
    async openUnixSocket(path, opts) {
      const session = await connection.session(opts?.signal, "openUnixSocket");
      return raceLost(session.openUnixSocket(path), session, "openUnixSocket", path);
    },
    dispose() {
      disposed ??= (async () => {
        await running.cancelAll();
        await connection.dispose();
      })();
      return disposed;
    },
  };
}
