import type { SandboxOptions } from "@tackle/operations";
import type { HostKeyVerification } from "./host-key.js";

/**
 * Options of {@link createSshOperations}.
 *
 * @example
 * ```ts
 * const ops = createSshOperations({
 *   host: "build.example.com", username: "ci",
 *   privateKey: await readFile("/home/me/.ssh/id_ed25519"),
 *   hostKey: { knownHostsPath: "/home/me/.ssh/known_hosts" },
 * });
 * ```
 */
export interface SshOperationsOptions {
  /** Server name or address (also the name looked up in known_hosts). */
  host: string;
  /** Default 22. */
  port?: number;
  /** Remote user to log in as. */
  username: string;
  /** Private key (OpenSSH or PEM text, or its bytes). One of `privateKey` or `agent` is needed. */
  privateKey?: string | Uint8Array;
  /** Passphrase of an encrypted `privateKey`. */
  passphrase?: string;
  /** ssh-agent socket path, or `true` for `$SSH_AUTH_SOCK`. */
  agent?: string | true;
  /**
   * How the server's key is trusted. Default: `~/.ssh/known_hosts`. An unknown or changed key is
   * refused with an {@link SshConnectionError} whose message says how to trust it.
   */
  hostKey?: HostKeyVerification;
  /**
   * The remote directory a host treats as the workspace (e.g. the path of
   * `ssh://user@host/path`). Exposed as `ops.root`; paths are not confined to it here (that is
   * the tools' workspace policy).
   */
  root?: string;
  /** Keepalive probe interval on an idle connection (default 15000 ms; 0 disables). */
  keepaliveIntervalMs?: number;
  /** Unanswered keepalives before the connection counts as lost (default 3). */
  keepaliveCountMax?: number;
  /** Handshake and authentication must finish within this (default 20000 ms). */
  readyTimeoutMs?: number;
  /**
   * Commands (exec, remote search) running at once on the one connection (default 6); more wait
   * for a free slot. OpenSSH allows 10 sessions per connection (`MaxSessions`): SFTP takes one
   * and short helpers (kill scripts, `rm -rf`) up to 3 more.
   */
  maxChannels?: number;
  /** Default SIGTERM to SIGKILL grace for `exec` (default 2000 ms). */
  killGraceMs?: number;
  /** How long to keep reading after the command exited, measured from the last output (default 100 ms). */
  idleGraceMs?: number;
  /**
   * Remote ripgrep for `search`: `"auto"` (default) probes `rg` on the remote PATH when the
   * connection opens; a path uses that binary; `false` never searches remotely (the tools then
   * walk with readdir).
   */
  ripgrep?: "auto" | string | false;
  /**
   * Run every command in bubblewrap on the remote host with this profile (the same options as the
   * local adapter's; network `"off"` or `"on"`, no allow list) unless the call's
   * `ExecOptions.sandbox` says otherwise. Off when omitted. bubblewrap is probed once per
   * connection; where it cannot run, a call that asks for the sandbox is refused with
   * `not_supported` and nothing runs. See docs/sandbox.md.
   */
  sandbox?: SandboxOptions;
}
