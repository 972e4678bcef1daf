/**
 * The relay that keeps a language server running inside the session's environment, as plain
 * CommonJS for the environment's `node`. `Operations.exec` gives a command no stdin, so the relay
 * is the server's client: it starts the server with pipes, speaks the Language Server Protocol
 * to it, takes requests as files the host writes atomically into its request directory, and
 * prints what the host needs as JSON lines on stdout, which `exec` streams back:
 *
 * - `{"t":"ready","pid":N}` once the server answered `initialize`;
 * - `{"t":"sent","id":"...","uri":"...","version":N}` when a request's text reached the server;
 * - `{"t":"diag","uri":"...","version":N|null,"items":[...]}` for each `publishDiagnostics`;
 * - `{"t":"exit","code":N}` when the server ended.
 *
 * A request file is `{"id","path","languageId","text"}`; the relay opens the document on its
 * first request and sends the whole new text on each later one. It ends the server and itself
 * when its request directory is removed, on SIGTERM, or when the server exits.
 *
 * Usage: node relay.cjs REQUEST_DIR SETTINGS_JSON -- SERVER_COMMAND [ARGS...]
 */
export const LSP_RELAY_SOURCE = String.raw`"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const [requestDir, settingsJson, separator, command, ...args] = process.argv.slice(2);
if (separator !== "--" || !command) {
  process.stderr.write("usage: relay.cjs REQUEST_DIR SETTINGS_JSON -- SERVER [ARGS...]\n");
  process.exit(2);
}
const settings = JSON.parse(settingsJson);
const out = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
let nextId = 1;
const pending = new Map();
const versions = new Map();
let ended = false;

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  server.stdin.write("Content-Length: " + body.length + "\r\n\r\n");
  server.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}

let buffer = Buffer.alloc(0);
server.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd === -1) return;
    const match = /Content-Length: *(\d+)/i.exec(buffer.subarray(0, headerEnd).toString("ascii"));
    if (!match) { buffer = buffer.subarray(headerEnd + 4); continue; }
    const length = Number(match[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
    buffer = buffer.subarray(headerEnd + 4 + length);
    let message;
    try { message = JSON.parse(body); } catch { continue; }
    receive(message);
  }
});

function receive(message) {
  if (message.id !== undefined && message.method === undefined) {
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    if (resolve) resolve(message.result);
    return;
  }
  if (message.id !== undefined) {
    // A request from the server: configuration, progress tokens, registrations. Empty answers.
    const result = message.method === "workspace/configuration"
      ? (message.params && message.params.items ? message.params.items.map(() => null) : [])
      : null;
    send({ id: message.id, result });
    return;
  }
  if (message.method === "textDocument/publishDiagnostics") {
    const params = message.params;
    out({
      t: "diag",
      uri: params.uri,
      version: typeof params.version === "number" ? params.version : null,
      items: (params.diagnostics || []).map((d) => ({
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: d.severity || 1,
        message: String(d.message),
        code: d.code === undefined || d.code === null ? undefined : String(d.code),
        source: d.source,
      })),
    });
  }
}

function handle(file) {
  let request;
  try {
    request = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.unlinkSync(file);
  } catch {
    return;
  }
  const uri = pathToFileURL(request.path).href;
  const version = (versions.get(uri) || 0) + 1;
  versions.set(uri, version);
  if (version === 1) {
    send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: request.languageId, version, text: request.text } } });
  } else {
    send({ method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges: [{ text: request.text }] } });
  }
  out({ t: "sent", id: request.id, uri, version });
}

function poll() {
  if (ended) return;
  let names;
  try {
    names = fs.readdirSync(requestDir);
  } catch {
    stop(0);
    return;
  }
  for (const name of names.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort()) handle(path.join(requestDir, name));
  setTimeout(poll, settings.pollMs || 10);
}

function stop(code) {
  if (ended) return;
  ended = true;
  try { send({ id: nextId++, method: "shutdown" }); send({ method: "exit" }); } catch {}
  setTimeout(() => { try { server.kill("SIGKILL"); } catch {} process.exit(code); }, 500).unref();
  server.once("exit", () => process.exit(code));
}

process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
server.on("error", (error) => { out({ t: "exit", code: -1, error: String(error.message) }); process.exit(1); });
server.on("exit", (code) => { if (!ended) { out({ t: "exit", code }); process.exit(1); } });

const root = process.cwd();
request("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(root).href,
  workspaceFolders: [{ uri: pathToFileURL(root).href, name: path.basename(root) }],
  capabilities: {
    textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: { didSave: false } },
    workspace: { configuration: true, workspaceFolders: true },
  },
  initializationOptions: settings.initializationOptions || {},
}).then(() => {
  send({ method: "initialized", params: {} });
  if (settings.configuration) send({ method: "workspace/didChangeConfiguration", params: { settings: settings.configuration } });

  out({ t: "ready", pid: server.pid });
  poll();
});
`;
