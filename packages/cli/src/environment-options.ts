/**
 * What the environment openers share: the options from the command line and the shape of an
 * opened remote environment. Apart from `environment.ts`, which imports each opener, so the
 * openers need not import it back.
 */
import type { Operations, SandboxOptions } from "@tackle/operations";

/** Options that reach the adapters (from the command line flags). */
export interface EnvironmentOptions {
  /**
   * Working directory. Local: resolved against the process's directory. Remote: an absolute path,
   * or a relative one resolved on the remote side against the URL's path (else the remote home).
   */
  cwd?: string;
  /** Private key file for ssh (default: the ssh agent in SSH_AUTH_SOCK). */
  identity?: string;
  /** Name of the environment variable holding the passphrase of an encrypted `identity`. */
  passphraseEnv?: string;
  /** known_hosts file for ssh host key verification (default ~/.ssh/known_hosts). */
  knownHosts?: string;
  /** Pinned `SHA256:` host key fingerprints (instead of a known_hosts file). */
  hostKeys?: string[];
  /** How long to wait for the ssh connection and handshake, ms (default: the adapter's). */
  connectTimeoutMs?: number;
  /** The Docker engine (`unix://`, `tcp://`, `ssh://`), instead of DOCKER_HOST / DOCKER_CONTEXT. */
  dockerHost?: string;
  /** The shell tools' sandbox (`--sandbox`, `--no-sandbox`; see docs/sandbox.md). */
  sandbox?: SandboxOptions | false;
}

/** The adapter of a remote environment before its working directory is settled. */
export interface RemoteEnvironment {
  operations: Operations;
  /** Where a relative `--cwd` starts: the URL's path, else the remote home, else `/`. */
  base: string;
  dispose(): Promise<void>;
}
