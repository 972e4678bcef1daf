import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxBlock } from "@tackle/operations";
import {
  proxyEnvironment,
  RELAY_PREAMBLE,
  RELAY_SOURCE,
  SANDBOX_PROXY_PORT,
  SANDBOX_PROXY_SOCKET,
} from "./proxy-relay.js";

/** The allow-list proxy of one sandboxed call. */
export interface ProxySession {
  /** The host socket the proxy listens on. */
  socketPath: string;
  /** Where it appears inside the sandbox. */
  sandboxSocketPath: string;
  /** Proxy variables for the command. */
  env: Record<string, string>;
  /** The command line inside the sandbox: the relay preamble around `setsid` + the shell. */
  wrap(setsid: string, shell: string[]): string[];
  /** Requests refused so far (`host:port`, in order, each once). */
  readonly blocked: SandboxBlock[];
  close(): Promise<void>;
}

/** Largest request head the proxy reads before it answers 400. */
const MAX_HEAD_BYTES = 16 * 1024;

/** The answer to a request outside the allow list: names the target and the option to set. */
export function blockedMessage(target: string): string {
  return `tackle sandbox: ${target} is not in the network allow list. The user can add it to the sandbox's network allow list (sandbox.network.allow, or tackle --sandbox-allow ${target}).`;
}

/**
 * True when `host:port` matches an allow-list entry: `host`, `*.domain` (the domain and every
 * subdomain), each optionally with `:port`; without a port, 80 and 443.
 */
export function allowedBy(allow: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  return allow.some((entry) => {
    const match = /^(.*?)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    if (!match) return false;
    const pattern = (match[1] ?? "").replace(/^\[|\]$/g, "");
    const ports = match[2] ? [Number(match[2])] : [80, 443];
    if (!ports.includes(port)) return false;
    if (pattern.startsWith("*.")) {
      const domain = pattern.slice(2);
      return name === domain || name.endsWith(`.${domain}`);
    }
    return name === pattern;
  });
}

/**
 * Starts an HTTP proxy on a fresh unix socket that forwards `CONNECT host:port` tunnels and
 * plain `http://` requests to the hosts `allow` names, and answers 403 with
 * {@link blockedMessage} to anything else. Plain requests are forwarded one per connection
 * (`Connection: close`), so a kept-alive connection cannot switch to another host.
 */
export async function startProxy(allow: readonly string[]): Promise<ProxySession> {
  const socketPath = join(tmpdir(), `tackle-proxy-${randomBytes(8).toString("hex")}.sock`);
  const blocked: SandboxBlock[] = [];
  const open = new Set<Socket>();
  const refuse = (client: Socket, target: string) => {
    if (!blocked.some((b) => b.target === target)) blocked.push({ kind: "network", target });
    const body = `${blockedMessage(target)}\n`;
    client.end(
      `HTTP/1.1 403 Forbidden\r\nX-Tackle-Sandbox: blocked\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  const server: Server = createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (bytes: Buffer) => {
      head = Buffer.concat([head, bytes]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES) client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        return;
      }
      client.off("data", onData);
      client.pause();
      handle(client, head.subarray(0, end).toString("latin1"), head.subarray(end + 4));
    };
    client.on("data", onData);
  });
  const handle = (client: Socket, headText: string, rest: Buffer) => {
    const [requestLine = "", ...headers] = headText.split("\r\n");
    const [method = "", target = "", version = "HTTP/1.1"] = requestLine.split(" ");
    let host: string;
    let port: number;
    let forward: Buffer | undefined;
    if (method.toUpperCase() === "CONNECT") {
      const at = target.lastIndexOf(":");
      host = target.slice(0, at);
      port = Number(target.slice(at + 1));
    } else {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        return;
      }
      if (url.protocol !== "http:") {
        client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        return;
      }
      host = url.hostname;
      port = Number(url.port || 80);
      const kept = headers.filter((line) => !/^(proxy-[a-z-]*|connection|keep-alive)\s*:/i.test(line));
      forward = Buffer.concat([
        Buffer.from(
          `${method} ${url.pathname}${url.search} ${version}\r\n${[...kept, "Connection: close"].join("\r\n")}\r\n\r\n`,
          "latin1",
        ),
        rest,
      ]);
    }
    const shown = `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535 || !allowedBy(allow, host, port)) {
      refuse(client, shown);
      return;
    }
    const upstream = connect({ host: host.replace(/^\[|\]$/g, ""), port });
    open.add(upstream);
    upstream.on("close", () => open.delete(upstream));
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      if (forward) upstream.write(forward);
      else {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length > 0) upstream.write(rest);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on("error", () => {
      // Before the connection: the client is still waiting for the proxy's answer.
      if (connected) client.destroy();
      else client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
    });
    client.on("error", () => upstream.destroy());
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    sandboxSocketPath: SANDBOX_PROXY_SOCKET,
    env: proxyEnvironment(),
    blocked,
    wrap: (setsid, shell) => [
      setsid,
      "sh",
      "-c",
      RELAY_PREAMBLE,
      process.execPath,
      RELAY_SOURCE,
      SANDBOX_PROXY_SOCKET,
      String(SANDBOX_PROXY_PORT),
      ...shell,
    ],
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}
