import os from "node:os";
import path from "node:path";
import type { Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import type { EnvSpec } from "./env-url.js";
import { UsageError } from "./usage-error.js";

/** An opened environment: its operations and the directory the tools start in. */
export interface OpenEnvironment {
  operations: Operations;
  cwd: string;
  dispose(): Promise<void>;
}

/** Options that reach the remote adapters. */
export interface EnvironmentOptions {
  /** Working directory: for local, resolved against the process cwd; remote, an absolute path. */
  cwd?: string;
  /** Private key file for ssh (default: the ssh agent in SSH_AUTH_SOCK). */
  identity?: string;
  /** known_hosts file for ssh host key verification (default ~/.ssh/known_hosts). */
  knownHosts?: string;
}

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String((error as Error).message).includes(name)
  );
}

async function importAdapter<T>(name: string, kind: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissingModule(error, name)) {
      throw new UsageError(
        `The ${kind} environment needs ${name}, which is not installed. Run: npm install ${name}`,
      );
    }
    throw error;
  }
}

/**
 * Opens the environment an {@link EnvSpec} names. Remote adapters are imported on demand, so a
 * CLI without them installed still runs locally and says what to install otherwise.
 */
export async function openEnvironment(
  spec: EnvSpec,
  options: EnvironmentOptions = {},
): Promise<OpenEnvironment> {
  if (spec.kind === "local") {
    const operations = createLocalOperations();
    const cwd = path.resolve(options.cwd ?? process.cwd());
    return { operations, cwd, dispose: async () => operations.dispose?.() };
  }
  if (spec.kind === "ssh") {
    const ssh = await importAdapter<typeof import("@tackle/operations-ssh")>("@tackle/operations-ssh", "ssh");
    const agent = process.env.SSH_AUTH_SOCK;
    if (!options.identity && !agent) {
      throw new UsageError(
        "No SSH key: pass --identity ~/.ssh/id_ed25519 or start an agent (eval $(ssh-agent) && ssh-add).",
      );
    }
    const { readFile } = await import("node:fs/promises");
    const privateKey = options.identity ? await readFile(options.identity) : undefined;
    const operations = ssh.createSshOperations({
      host: spec.host,
      port: spec.port,
      username: spec.username,
      ...(privateKey ? { privateKey } : { agent: true as const }),
      hostKey: { knownHostsPath: options.knownHosts ?? path.join(os.homedir(), ".ssh", "known_hosts") },
      ...(spec.path ? { root: spec.path } : {}),
    });
    // Connect now: a refused host key or key fails here with its fix, and `search` is decided
    // (remote ripgrep or the tools' portable walk) before any tool runs.
    await operations.connect();
    const cwd = options.cwd ?? spec.path ?? operations.homeDir ?? "/";
    return { operations, cwd, dispose: async () => operations.dispose?.() };
  }
  const docker = await importAdapter<typeof import("@tackle/operations-docker")>(
    "@tackle/operations-docker",
    "docker",
  );
  const operations = await docker.createDockerOperations({ container: spec.container });
  const cwd = options.cwd ?? spec.path ?? operations.homeDir ?? "/";
  return { operations, cwd, dispose: async () => operations.dispose?.() };
}
