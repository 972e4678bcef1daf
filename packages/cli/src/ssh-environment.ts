import { readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SshOperations, SshOperationsOptions } from "@tackle/operations-ssh";
import type { EnvSpec } from "./env-url.js";
import type { EnvironmentOptions, RemoteEnvironment } from "./environment-options.js";
import { importAdapter } from "./import-adapter.js";
import { EnvironmentError, UsageError } from "./usage-error.js";

type SshModule = typeof import("@tackle/operations-ssh");

/** Where an SSH connection goes. */
export interface SshTarget {
  host: string;
  port: number;
  username: string;
}

/** Loads `@tackle/operations-ssh` (an optional dependency). */
export function loadSshAdapter(): Promise<SshModule> {
  return importAdapter<SshModule>("@tackle/operations-ssh", "ssh");
}

/** How the CLI phrases pinning a host key: its own flag, not the library option. */
const FLAG_WORDING = { pin: (fingerprint: string) => `--host-key ${fingerprint}` };

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** Reads `--identity FILE`; a missing or unreadable file is a usage error naming the flag and path. */
async function readIdentity(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT")
      throw new UsageError(
        `--identity ${file}: no such file. Check the path of your private key (e.g. ~/.ssh/id_ed25519).`,
      );
    if (code === "EISDIR")
      throw new UsageError(`--identity ${file} is a directory. Name the private key file.`);
    throw new UsageError(
      `--identity ${file} cannot be read (${code ?? (error as Error).message}). Check its permissions, or use the ssh agent instead.`,
    );
  }
}

/** The passphrase named by `--passphrase-env VAR`. */
function passphraseFrom(variable: string | undefined, identity: string | undefined): string | undefined {
  if (variable === undefined) return undefined;
  if (identity === undefined)
    throw new UsageError(
      "--passphrase-env is the passphrase of an --identity key: give --identity FILE too.",
    );
  const value = process.env[variable];
  if (value === undefined)
    throw new UsageError(
      `--passphrase-env ${variable}: the environment variable ${variable} is not set. Set it to the key's passphrase (read -rs ${variable} && export ${variable}).`,
    );
  return value;
}

/** `--known-hosts FILE` must exist: a mistyped path is named, not "fixed" by appending a key to it. */
async function checkKnownHosts(file: string, target: SshTarget): Promise<void> {
  const info = await stat(file).catch((error: unknown) => errnoOf(error) ?? "error");
  if (typeof info === "string") {
    const scan = `ssh-keyscan${target.port === 22 ? "" : ` -p ${target.port}`} ${target.host}`;
    throw new UsageError(
      info === "ENOENT"
        ? `--known-hosts ${file}: no such file. Check the path. To start one, check the server's fingerprint with its owner, then: ${scan} > ${file}`
        : `--known-hosts ${file} cannot be read (${info}). Check its permissions.`,
    );
  }
}

/** The SSH adapter's options from the command line flags (key, passphrase, host key trust, timeout). */
export async function sshAdapterOptions(
  target: SshTarget,
  options: EnvironmentOptions,
): Promise<SshOperationsOptions> {
  const passphrase = passphraseFrom(options.passphraseEnv, options.identity);
  if (!options.identity && !process.env.SSH_AUTH_SOCK) {
    throw new UsageError(
      "No SSH key: pass --identity ~/.ssh/id_ed25519 or start an agent (eval $(ssh-agent) && ssh-add).",
    );
  }
  const privateKey = options.identity ? await readIdentity(options.identity) : undefined;
  if (options.knownHosts !== undefined) await checkKnownHosts(options.knownHosts, target);
  return {
    host: target.host,
    port: target.port,
    username: target.username,
    ...(privateKey ? { privateKey } : { agent: true as const }),
    ...(passphrase !== undefined ? { passphrase } : {}),
    hostKey: options.hostKeys
      ? { fingerprint: options.hostKeys }
      : { knownHostsPath: options.knownHosts ?? path.join(os.homedir(), ".ssh", "known_hosts") },
    ...(options.connectTimeoutMs !== undefined ? { readyTimeoutMs: options.connectTimeoutMs } : {}),
  };
}

/**
 * Creates the SSH adapter for `target` from the flags. A key it cannot use (encrypted without a
 * passphrase, wrong passphrase, not a key) is a usage error naming `--identity` and the way to
 * give the passphrase.
 */
export async function createCliSshOperations(
  ssh: SshModule,
  target: SshTarget,
  options: EnvironmentOptions,
  extra: Partial<SshOperationsOptions> = {},
): Promise<SshOperations> {
  const adapterOptions = { ...(await sshAdapterOptions(target, options)), ...extra };
  try {
    return ssh.createSshOperations(adapterOptions);
  } catch (error) {
    const identity = options.identity ?? "the key";
    if (ssh.isSshConnectionError(error, "key_encrypted")) {
      throw new UsageError(
        `--identity ${identity} is encrypted. Give its passphrase in an environment variable and name it: --passphrase-env VAR; or load the key into the ssh agent (ssh-add ${identity}) and drop --identity.`,
      );
    }
    if (ssh.isSshConnectionError(error, "key_invalid")) {
      throw new UsageError(
        options.passphraseEnv !== undefined
          ? `--identity ${identity}: the passphrase in ${options.passphraseEnv} does not decrypt it (or it is not a private key). Check both.`
          : `--identity ${identity} is not a private key ssh can read (OpenSSH, PEM or PuTTY). Check that you named the private key, not the .pub file.`,
      );
    }
    throw error;
  }
}

/**
 * The CLI's message for an SSH connection that failed (host, port, next step), worded with its
 * flags (`--host-key`, `--connect-timeout`, `--identity`) where the library names its options.
 * Returns `undefined` for errors that are not about the SSH connection.
 */
export function describeSshFailure(ssh: SshModule, error: unknown): EnvironmentError | undefined {
  if (!ssh.isSshConnectionError(error)) return undefined;
  const endpoint = error.endpoint;
  const where = endpoint ? `${endpoint.host}:${endpoint.port}` : "the host";
  const cause = { cause: error };
  switch (error.reason) {
    case "host_key_unknown":
    case "host_key_changed":
      return new EnvironmentError(
        error.hostKey ? ssh.hostKeyMessage(error.hostKey, FLAG_WORDING) : error.message,
        cause,
      );
    case "connect_refused":
      return new EnvironmentError(
        `Connection refused by ${where}: no SSH server listens there. Check the host and port (ssh://user@host:PORT) and that sshd runs on the host.`,
        cause,
      );
    case "host_not_found":
      return new EnvironmentError(
        `Unknown host "${endpoint?.host ?? ""}": the name does not resolve. Check its spelling, or use the host's IP address.`,
        cause,
      );
    case "connect_timeout":
      return new EnvironmentError(
        `No SSH handshake with ${where} within ${(error.timeoutMs ?? 0) / 1000} s. Check that the host is up and that port ${endpoint?.port ?? 22} is its SSH server, or allow longer with --connect-timeout SECONDS.`,
        cause,
      );
    case "auth_failed":
      return new EnvironmentError(
        `SSH login as ${endpoint?.username ?? "the user"} on ${where} refused: the server accepted none of the offered keys. Check the user name, the key (--identity FILE, or the keys in your ssh agent) and the host's ~/.ssh/authorized_keys.`,
        cause,
      );
    default:
      return new EnvironmentError(error.message, cause);
  }
}

type SshSpec = Extract<EnvSpec, { kind: "ssh" }>;

/** Opens `ssh://user@host[:port]/path` and connects at once, so every refusal comes with its fix here. */
export async function openSshEnvironment(
  spec: SshSpec,
  options: EnvironmentOptions,
): Promise<RemoteEnvironment> {
  const ssh = await loadSshAdapter();
  const operations = await createCliSshOperations(ssh, spec, options, spec.path ? { root: spec.path } : {});
  try {
    // Connect now: a refused host key or key fails here with its fix, and `search` is decided
    // (remote ripgrep or the tools' portable walk) before any tool runs.
    await operations.connect();
  } catch (error) {
    await operations.dispose().catch(() => undefined);
    throw describeSshFailure(ssh, error) ?? error;
  }
  return {
    operations,
    base: spec.path ?? operations.homeDir ?? "/",
    dispose: () => operations.dispose(),
  };
}
