/** One diagnostic as the relay prints it (1-based line and column, LSP severity number). */
export interface RelayItem {
  line: number;
  column: number;
  severity: number;
  message: string;
  code?: string;
  source?: string;
}

/** A line the relay prints (see `lsp-relay-source.ts`). */
export type RelayMessage = { seq: number } & (
  | { t: "ready"; pid: number }
  | { t: "sent"; id: string; uri: string; version: number }
  | { t: "diag"; uri: string; version: number | null; items: RelayItem[] }
  | { t: "exit"; code: number | null; error?: string }
);

/** Messages kept for waiters that start late (a long session prints many). */
const KEPT_MESSAGES = 256;

/**
 * The relay's stdout as messages: decodes JSON lines across chunks, keeps the latest diagnostics
 * of every file, and lets callers wait for a message with an abort signal. Once the relay ended,
 * every wait rejects with the reason.
 */
export class RelayStream {
  private readonly decoder = new TextDecoder();
  private partial = "";
  private sequence = 0;
  private readonly recent: RelayMessage[] = [];
  private readonly latest = new Map<string, RelayItem[]>();
  private readonly listeners = new Set<() => void>();
  private ended: string | undefined;
  /** The server's process id, from the relay's `ready` line. */
  serverPid: number | undefined;

  /** Adds a chunk of stdout. */
  push(bytes: Uint8Array): void {
    const lines = (this.partial + this.decoder.decode(bytes, { stream: true })).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof parsed !== "object" || parsed === null || !("t" in parsed)) continue;
      const message = { ...(parsed as object), seq: ++this.sequence } as RelayMessage;
      if (message.t === "diag") this.latest.set(message.uri, message.items);
      if (message.t === "ready") this.serverPid = message.pid;
      if (message.t === "exit") this.ended ??= `the server exited (code ${message.code ?? "none"})`;
      this.recent.push(message);
      if (this.recent.length > KEPT_MESSAGES) this.recent.shift();
    }
    this.notify();
  }

  /** The relay ended: every wait rejects with `reason`. */
  end(reason: string): void {
    this.ended ??= reason;
    this.notify();
  }

  /** The latest diagnostics of one file, or undefined when the server never reported on it. */
  itemsOf(uri: string): RelayItem[] | undefined {
    return this.latest.get(uri);
  }

  /** The latest diagnostics of every file the server reported on. */
  latestDiagnostics(): { uri: string; items: RelayItem[] }[] {
    return [...this.latest].map(([uri, items]) => ({ uri, items }));
  }

  /**
   * The first message (after `since`, when given) that `match` accepts, waiting for it until
   * `signal` fires (rejects with the signal's reason) or the relay ends (rejects with why).
   */
  waitFor<M extends RelayMessage>(
    match: ((message: RelayMessage) => message is M) | ((message: RelayMessage) => boolean),
    signal: AbortSignal,
    options: { since?: RelayMessage } = {},
  ): Promise<M> {
    const after = options.since?.seq ?? 0;
    const find = () => this.recent.find((m) => m.seq > after && match(m)) as M | undefined;
    return this.until(find, signal);
  }

  /** Resolves once no diagnostics for `uri` arrived for `ms` milliseconds. */
  quietFor(uri: string, ms: number, signal: AbortSignal): Promise<void> {
    const last = () => [...this.recent].reverse().find((m) => m.t === "diag" && m.uri === uri)?.seq ?? 0;
    return new Promise<void>((resolve, reject) => {
      let seen = last();
      let timer = setTimeout(done, ms);
      const onMessage = () => {
        const now = last();
        if (now === seen) return;
        seen = now;
        clearTimeout(timer);
        timer = setTimeout(done, ms);
      };
      const onAbort = () => finish(() => reject(signal.reason));
      function done() {
        finish(resolve);
      }
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(onMessage);
        signal.removeEventListener("abort", onAbort);
        settle();
      };
      if (signal.aborted) return onAbort();
      this.listeners.add(onMessage);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private until<T>(find: () => T | undefined, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) return finish(() => resolve(found));
        if (this.ended !== undefined) {
          const reason = this.ended;
          return finish(() => reject(new Error(reason)));
        }
      };
      const onAbort = () => finish(() => reject(signal.reason));
      const finish = (settle: () => void) => {
        this.listeners.delete(check);
        signal.removeEventListener("abort", onAbort);
        settle();
      };
      if (signal.aborted) return onAbort();
      this.listeners.add(check);
      signal.addEventListener("abort", onAbort, { once: true });
      check();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
