/** A running test sshd (see ssh-server.mjs). */
export interface TestSshServer {
  host: string;
  port: number;
  username: string;
  dir: string;
  pid: number;
  privateKeyPath: string;
  privateKey: string;
  /** A valid key the server does not accept. */
  unauthorizedKey: string;
  knownHostsPath: string;
  /**
   * The options `createSshOperations` needs to log in and trust this server (host, port, user,
   * key, known_hosts). Spread it and add or override the rest:
   * `createSshOperations({ ...server.connectOptions, ripgrep: false })`.
   */
  connectOptions: Readonly<{
    host: string;
    port: number;
    username: string;
    privateKey: string;
    hostKey: Readonly<{ knownHostsPath: string }>;
  }>;
  hostKeyLine: string;
  hostFingerprint: string;
  logPath: string;
  /** SIGKILLs sshd and its per-connection processes; the commands they started are orphaned (their watchdogs end them). */
  crash(): Promise<void>;
  /** Stops sshd by pid and removes its temp dir. */
  stop(): Promise<void>;
}
/**
 * `env` is set in every session (sshd `SetEnv`); `tools` are executables copied into a bin dir
 * put first on the sessions' PATH (e.g. a test ripgrep), visible to this server's sessions only.
 * `sftpLog` serves SFTP with OpenSSH's `sftp-server -l INFO`, logging to `<dir>/sftp.log` every
 * open, rename and close (with the bytes read and written).
 */
export function startSshServer(options?: {
  extraConfig?: string[];
  env?: Record<string, string>;
  tools?: string[];
  sftpLog?: boolean;
}): Promise<TestSshServer>;
export function fingerprintOf(publicKeyLine: string): string;
export function descendantsOf(pid: number): Promise<number[]>;
/** True while `pid` runs; a zombie counts as gone. */
export function isAlive(pid: number): Promise<boolean>;
