#!/usr/bin/env node
import { main } from "./main.js";

const controller = new AbortController();
let interrupts = 0;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // First signal: stop the running tool cleanly (its process tree is ended). Second: leave now.
    if (++interrupts > 1) process.exit(130);
    controller.abort(new Error(`received ${signal}`));
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
  readStdin,
  stderrIsTTY: process.stderr.isTTY === true,
});
// Flush stdout before exiting: a pipe reader must get the whole output.
process.stdout.write("", () => process.exit(code));
