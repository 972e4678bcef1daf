import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { EnvSpec } from "./env-url.js";
import type { EnvironmentOptions, RemoteEnvironment } from "./environment.js";
import { importAdapter } from "./import-adapter.js";
import { UsageError } from "./usage-error.js";

type SshSpec = Extract<EnvSpec, { kind: "ssh" }>;

/** Opens `ssh://user@host[:port]/path` and connects at once, so every refusal comes with its fix here. */
export async function openSshEnvironment(
  spec: SshSpec,
  options: EnvironmentOptions,
): Promise<RemoteEnvironment> {
  const ssh = await importAdapter<typeof import("@tackle/operations-ssh")>("@tackle/operations-ssh", "ssh");
  const agent = process.env.SSH_AUTH_SOCK;
  if (!options.identity && !agent) {
    throw new UsageError(
      "No SSH key: pass --identity ~/.ssh/id_ed25519 or start an agent (eval $(ssh-agent) && ssh-add).",
    );
  }
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
  return {
    operations,
    base: spec.path ?? operations.homeDir ?? "/",
    dispose: async () => operations.dispose?.(),
  };
}
