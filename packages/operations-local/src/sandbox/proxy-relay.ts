/**
 * The pieces that run inside the sandbox when its network is an allow list. The sandbox has no
 * network of its own, only loopback; the host's proxy listens on a unix socket shown inside.
 * Programs speak HTTP proxy over TCP (`HTTP_PROXY=http://127.0.0.1:PORT`), so a small relay
 * inside listens on that port of the sandbox's own loopback and copies each connection to the
 * socket. It runs on the host's Node (`process.execPath`), started by a POSIX sh preamble.
 */

/** Port the relay listens on, on the sandbox's own loopback (no other process shares it). */
export const SANDBOX_PROXY_PORT = 3128;

/** Where the proxy's socket appears inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = "/run/tackle-proxy.sock";

/**
 * The relay, as a CommonJS program for `node -e` (argv: socket, port, ready fifo). Writes
 * `ready` to the fifo once it listens (`fail` when it cannot).
 */
export const RELAY_SOURCE = `
const net = require("node:net"), fs = require("node:fs");
const [socket, port, fifo] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  client.pipe(upstream); upstream.pipe(client);
  client.on("error", () => upstream.destroy()); upstream.on("error", () => client.destroy());
});
server.on("error", () => { fs.writeFileSync(fifo, "fail\\n"); process.exit(1); });
server.listen(Number(port), "127.0.0.1", () => fs.writeFileSync(fifo, "ready\\n"));
`;

/**
 * The sh preamble (`sh -c PREAMBLE node RELAY socket port command...`): starts the relay, waits
 * until it listens, runs the command as its child, ends the relay (and waits for
 * it) and exits with the command's status. The preamble is the process group leader the host reports.
 */
export const RELAY_PREAMBLE = [
  "f=/tmp/.tackle-proxy-ready",
  'mkfifo -m 600 "$f" || exit 125',
  '"$0" -e "$1" "$2" "$3" "$f" </dev/null >/dev/null 2>&1 &',
  "r=$!",
  // The relay always answers (ready, or fail from its error handler); a relay that never
  // starts leaves the read waiting, and the command's timeout ends it like any other hang.
  'read ok < "$f"; rm -f "$f"',
  'if [ "$ok" != ready ]; then echo "tackle sandbox: the network proxy relay did not start ($ok)" >&2; kill $r 2>/dev/null; exit 125; fi',
  "shift 3",
  '"$@"',
  "s=$?",
  // Waited for: the sandbox's init then exits at once, and the host sees nothing left behind.
  "kill $r 2>/dev/null; wait $r 2>/dev/null",
  "exit $s",
].join("\n");

/** Proxy variables of a sandboxed command (both spellings: curl reads lower case, others upper). */
export function proxyEnvironment(port: number = SANDBOX_PROXY_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const local = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    // Node's own fetch and http use the variables only when asked to (Node 24+).
    NODE_USE_ENV_PROXY: "1",
  };
}
