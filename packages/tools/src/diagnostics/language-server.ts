import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import type {
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticsProvider,
  DiagnosticsRequest,
} from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { LSP_RELAY_SOURCE } from "./lsp-relay-source.js";
import { type RelayMessage, RelayStream } from "./relay-stream.js";

/** A language server the provider can run: how to start it and which files it checks. */
export interface LanguageServerSpec {
  /** Short name for results and logs (`typescript`, `pyright`). */
  name: string;
  /** Shell command (bash) that starts the server speaking LSP on stdio, e.g. `pyright-langserver --stdio`. */
  command: string;
  /** Extensions of the files it checks (lower case, with the dot). */
  extensions: readonly string[];
  /** The LSP `languageId` of a file it checks. */
  languageId: (path: string) => string;
  /** Sent as `initializationOptions` with `initialize`. */
  initializationOptions?: Record<string, unknown>;
  /** Sent with `workspace/didChangeConfiguration` once initialised. */
  configuration?: Record<string, unknown>;
  /**
   * After the first diagnostics for the changed file, how long to keep listening for more, in ms
   * (a server that publishes syntactic diagnostics first and semantic ones a moment later). The
   * call's budget bounds it too. Default 0.
   */
  settleMs?: number;
  /**
   * For a server that publishes nothing when a file that had no diagnostics still has none
   * (typescript-language-server): after a change to such a file, how long to wait for
   * diagnostics before taking its silence as "still clean", in ms. The call's budget bounds it
   * too. Absent: the server always publishes, and the provider waits for it.
   */
  stillCleanAfterMs?: number;
}

/** Options for {@link createLanguageServerDiagnostics}. */
export interface LanguageServerDiagnosticsOptions {
  /** The environment the server runs in (the session's `Operations`). */
  operations: Operations;
  /** Project root: the server's working directory and workspace folder. */
  cwd: string;
  server: LanguageServerSpec;
  /** The `node` that runs the relay in the environment. Default `node` (from `PATH`). */
  node?: string;
  /** Extra environment for the relay and the server (e.g. a `PATH` that reaches them). */
  env?: Record<string, string>;
  /** Where the relay's directory is made (absolute, in the environment). Default `/tmp`. */
  tempDir?: string;
}

/** The provider {@link createLanguageServerDiagnostics} makes. */
export interface LanguageServerDiagnostics extends DiagnosticsProvider {
  /** Process id of the server in its environment, once it answered `initialize` (else undefined). */
  readonly serverPid: number | undefined;
}

/** A running relay and its server. */
interface Running {
  dir: string;
  requests: string;
  stream: RelayStream;
  stop: AbortController;
  ended: Promise<unknown>;
}

const SEVERITIES: Record<number, DiagnosticSeverity> = {
  1: "error",
  2: "warning",
  3: "information",
  4: "hint",
};

/**
 * A {@link DiagnosticsProvider} that keeps one language server running in the session's
 * environment, through `Operations` only, so it works the same locally, over SSH and in a
 * container. `exec` gives a command no stdin, so a small relay (`node`, written into a private
 * directory of the environment) is the server's LSP client: the host writes each changed file's
 * text as a request file (`writeFile`, atomic) and reads the server's diagnostics from the
 * relay's streamed stdout. The server starts on the first change it handles and stays warm until
 * `dispose()` (which the tool context's `dispose()` calls).
 *
 * @example
 * ```ts
 * const context = createToolContext({
 *   cwd, operations,
 *   diagnostics: { providers: [createLanguageServerDiagnostics({ operations, cwd, server: TYPESCRIPT_LANGUAGE_SERVER })] },
 * });
 * ```
 */
export function createLanguageServerDiagnostics(
  options: LanguageServerDiagnosticsOptions,
): LanguageServerDiagnostics {
  const { operations: ops, server } = options;
  const extensions = new Set(server.extensions);
  let running: Promise<Running> | undefined;
  let disposed = false;
  let sequence = 0;
  let stream: RelayStream | undefined;

  async function start(): Promise<Running> {
    const dir = `${options.tempDir ?? "/tmp"}/tackle-lsp-${randomUUID()}`;
    const requests = `${dir}/requests`;
    await ops.mkdir(requests, { recursive: true });
    await ops.writeFile(`${dir}/relay.cjs`, LSP_RELAY_SOURCE);
    const settings = JSON.stringify({
      initializationOptions: server.initializationOptions ?? {},
      ...(server.configuration ? { configuration: server.configuration } : {}),
    });
    const command = [
      "exec",
      quote(options.node ?? "node"),
      quote(`${dir}/relay.cjs`),
      quote(requests),
      quote(settings),
      "--",
      server.command,
    ].join(" ");
    const relayStream = new RelayStream();
    stream = relayStream;
    const stop = new AbortController();
    const ended = ops
      .exec(command, {
        shell: "bash",
        cwd: options.cwd,
        ...(options.env ? { env: options.env } : {}),
        signal: stop.signal,
        onChunk: (chunk) => {
          if (chunk.stream === "stdout") relayStream.push(chunk.bytes);
        },
      })
      .then(
        (result) =>
          relayStream.end(
            `the ${server.name} server's relay ended (${result.status}, exit ${result.exitCode})`,
          ),
        (error: unknown) => relayStream.end(`the ${server.name} server's relay failed: ${messageOf(error)}`),
      );
    return { dir, requests, stream: relayStream, stop, ended };
  }

  return {
    name: server.name,
    get serverPid() {
      return stream?.serverPid;
    },
    handles(path) {
      const dot = path.lastIndexOf(".");
      return dot !== -1 && extensions.has(path.slice(dot).toLowerCase());
    },
    async diagnose(request: DiagnosticsRequest): Promise<Diagnostic[]> {
      if (disposed) throw new Error(`the ${server.name} diagnostics provider was disposed`);
      // The first call starts the server; when its budget runs out first, the start goes on
      // (the next change finds the server warm).
      running ??= start();
      const relay = await running;
      await relay.stream.waitFor((m) => m.t === "ready", request.signal);
      const cleanBefore = relay.stream.itemsOf(pathUri(request.path))?.length === 0;
      const id = `${++sequence}`;
      const file = `${relay.requests}/${String(sequence).padStart(8, "0")}.json`;
      const body = {
        id,
        path: request.path,
        languageId: server.languageId(request.path),
        text: request.text,
      };
      // writeFile is atomic (a `.tmp` file renamed into place): the relay never reads half a request.
      await ops.writeFile(file, JSON.stringify(body), { signal: request.signal });
      const sent = await relay.stream.waitFor(
        (m): m is RelayMessage & { t: "sent" } => m.t === "sent" && m.id === id,
        request.signal,
      );
      const uri = sent.uri;
      const answered = relay.stream.waitFor(
        (m) => m.t === "diag" && m.uri === uri && (m.version === null || m.version >= sent.version),
        request.signal,
        { since: sent },
      );
      if (cleanBefore && server.stillCleanAfterMs !== undefined) {
        const silence = new Promise<void>((resolve) => setTimeout(resolve, server.stillCleanAfterMs).unref());
        answered.catch(() => {});
        await Promise.race([answered, silence]);
      } else {
        await answered;
      }
      if (server.settleMs) await relay.stream.quietFor(uri, server.settleMs, request.signal);
      return relay.stream.latestDiagnostics().flatMap(({ uri: fileUri, items }) =>
        items.map((item) => ({
          path: pathOfUri(fileUri),
          line: item.line,
          column: item.column,
          severity: SEVERITIES[item.severity] ?? "error",
          message: item.message,
          ...(item.code !== undefined ? { code: item.code } : {}),
          ...(item.source !== undefined ? { source: item.source } : {}),
        })),
      );
    },
    async dispose() {
      disposed = true;
      if (!running) return;
      const relay = await running.catch(() => undefined);
      if (!relay) return;
      // Removing its directory tells the relay to shut the server down; the abort ends what is left.
      await ops.remove(relay.dir, { recursive: true, force: true }).catch(() => {});
      const graceful = await Promise.race([
        relay.ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DISPOSE_GRACE_MS).unref()),
      ]);
      if (!graceful) relay.stop.abort();
      await relay.ended;
    },
  };
}

/** How long `dispose()` lets the relay shut its server down before the process tree is killed. */
export const DISPOSE_GRACE_MS = 2000;

/** The `file:` URI the relay makes of `path` (Node's `pathToFileURL`, as in the relay). */
function pathUri(path: string): string {
  return pathToFileURL(path).href;
}

function pathOfUri(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/** A single-quoted bash word. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
