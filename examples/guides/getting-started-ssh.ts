// Getting started over SSH: the same session on another machine; only the context changes.
// Run it with `SSH_HOST=devbox SSH_USER=me npx tsx getting-started-ssh.ts /home/me/scratch`.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { createSshOperations } from "@tackle/operations-ssh";
import { createToolContext } from "@tackle/tools";
import { firstSession } from "./first-session.js";

const env = process.env;
const folder = process.argv[2] ?? "/tmp/tackle-start"; // a folder on the remote machine
// #region context
const operations = createSshOperations({
  host: env.SSH_HOST ?? "127.0.0.1",
  port: Number(env.SSH_PORT ?? 22),
  username: env.SSH_USER ?? "root",
  privateKey: readFileSync(env.SSH_KEY ?? `${homedir()}/.ssh/id_ed25519`),
  // Pinned: the host key must be in this known_hosts file, or the connection is refused.
  hostKey: { knownHostsPath: env.SSH_KNOWN_HOSTS ?? `${homedir()}/.ssh/known_hosts` },
});
await operations.mkdir(folder, { recursive: true });
const context = createToolContext({ cwd: folder, operations, disposeOperations: true });
// #endregion context
try {
  await firstSession(context);
} finally {
  await context.dispose(); // also closes the SSH connection (disposeOperations)
}
