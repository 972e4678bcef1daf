// tools + operations-ssh: the same tools on a remote host. Connection details come from the
// environment (TACKLE_SSH_HOST, _PORT, _USER, _KEY (a key file), _KNOWN_HOSTS, _DIR).
import { readFileSync } from "node:fs";
import { invokeTool } from "@tackle/agent-core";
import { createSshOperations } from "@tackle/operations-ssh";
import { createToolContext, createTools } from "@tackle/tools";
import { expectOk } from "./shared.js";

function env(name: string): string {
  const value = process.env[`TACKLE_SSH_${name}`];
  if (value === undefined) throw new Error(`TACKLE_SSH_${name} is not set`);
  return value;
}

const operations = createSshOperations({
  host: env("HOST"),
  port: Number(env("PORT")),
  username: env("USER"),
  privateKey: readFileSync(env("KEY")),
  hostKey: { knownHostsPath: env("KNOWN_HOSTS") },
});
const context = createToolContext({ cwd: env("DIR"), operations });
try {
  const { write, read, find, bash } = createTools({ context, names: ["write", "read", "find", "bash"] });
  expectOk("write", await invokeTool(write, { path: "remote.txt", content: "written over ssh\n" }));
  const text = expectOk("read", await invokeTool(read, { path: "remote.txt" }));
  const listed = expectOk("find", await invokeTool(find, { pattern: "*.txt" }));
  const ran = expectOk("bash", await invokeTool(bash, { command: "echo pid-$$ && wc -c < remote.txt" }));
  console.log(
    JSON.stringify({
      read: text.includes("written over ssh"),
      found: listed.includes("remote.txt"),
      ran: ran.includes("17"),
    }),
  );
} finally {
  await context.dispose();
  await operations.dispose();
}
