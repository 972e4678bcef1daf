import { ABORT_SETTLE_MS } from "../adapter/exec-defaults.js";
import { OperationError } from "../errors.js";
import { type ResidentRunResult, ResidentShell, type ResidentShellHost } from "./resident-shell.js";

/** Most resident shells one adapter keeps; more parallel calls wait for one. */
export const MAX_RESIDENT_SHELLS = 4;

/**
 * How long a request whose reader left early (a listing cut by its time budget) may run on
 * before its shell is closed instead of reused: a shell kept keeps the next call fast.
 */
const ABANDONED_REQUEST_MS = 2000;

/**
 * Up to {@link MAX_RESIDENT_SHELLS} resident shells: a call takes an idle one (starting one when
 * all are busy), so parallel calls do not queue behind a long read. An aborted or abandoned call
 * closes its shell instead of reusing it.
 */
export class ResidentShellPool {
  private readonly idle: ResidentShell[] = [];
  private count = 0;
  private readonly waiting: ((shell: ResidentShell | undefined) => void)[] = [];
  private closed = false;

  constructor(private readonly host: ResidentShellHost) {}

  /** Runs `script` (arguments already quoted in) with `data` as its stdin. */
  async run(
    script: string,
    options: { data?: Uint8Array; signal?: AbortSignal | undefined; operation: string; path?: string },
  ): Promise<ResidentRunResult> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    let onAbort: (() => void) | undefined;
    try {
      const result = shell.run(script, options.data);
      if (!signal) return await result;
      return await Promise.race([
        result,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason);
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } catch (error) {
      shell.close();
      if (signal?.aborted) {
        await shell.settled(ABORT_SETTLE_MS);
        throw aborted(options.operation, options.path, signal.reason);
      }
      throw error;
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      this.release(shell);
    }
  }

  /** Runs `script` and yields its stdout as it arrives; returns the exit status. */
  async *stream(
    script: string,
    options: { signal?: AbortSignal | undefined; operation: string; path?: string },
  ): AsyncGenerator<Uint8Array, number> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    const queue: Buffer[] = [];
    let wake: (() => void) | undefined;
    let outcome: { status: number } | { error: unknown } | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    const request = shell.run(script, undefined, (chunk) => {
      queue.push(chunk);
      wake?.();
    });
    request
      .then(
        (result) => {
          outcome = { status: result.exitCode ?? 1 };
        },
        (error: unknown) => {
          outcome = { error };
        },
      )
      .finally(() => wake?.());
    let finished = false;
    try {
      for (;;) {
        if (signal?.aborted) throw aborted(options.operation, options.path, signal.reason);
        const chunk = queue.shift();
        if (chunk) {
          shell.consumed(chunk.length);
          yield chunk;
          continue;
        }
        if (outcome) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      if ("error" in outcome) throw outcome.error;
      finished = true;
      return outcome.status;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (finished || outcome) this.release(shell);
      else {
        // Left early: let the request finish (its output dropped) and reuse the shell, or
        // close it when the request runs on.
        shell.abandon();
        const timer = setTimeout(() => shell.close(), ABANDONED_REQUEST_MS);
        timer.unref();
        void request.then(
          () => {
            clearTimeout(timer);
            this.release(shell);
          },
          () => {
            clearTimeout(timer);
            this.release(shell);
          },
        );
      }
    }
  }

  /** Starts shells in the background until `count` exist (a cold call waits for an exec start). */
  warm(count = MAX_RESIDENT_SHELLS): void {
    while (!this.closed && this.count < Math.min(count, MAX_RESIDENT_SHELLS)) {
      this.count++;
      ResidentShell.start(this.host).then(
        (shell) => this.release(shell),
        () => {
          this.count--;
        },
      );
    }
  }

  /** Shells started and not retired, and how many of them wait idle for a call. */
  get shells(): { open: number; idle: number } {
    return { open: this.count, idle: this.idle.length };
  }

  /** Closes every shell. Idempotent. */
  close(): void {
    this.closed = true;
    for (const shell of this.idle.splice(0)) shell.close();
    for (const wake of this.waiting.splice(0)) wake(undefined);
  }

  private async acquire(operation: string, path: string | undefined): Promise<ResidentShell> {
    for (;;) {
      if (this.closed)
        throw new OperationError("aborted", `${operation}: the adapter was disposed`, { operation });
      const shell = this.idle.pop();
      if (shell && !shell.dead) return shell;
      if (shell) {
        this.count--;
        continue;
      }
      if (this.count < MAX_RESIDENT_SHELLS) {
        this.count++;
        try {
          return await ResidentShell.start(this.host);
        } catch (error) {
          this.count--;
          throw this.host.fail(error, operation, path);
        }
      }
      const next = await new Promise<ResidentShell | undefined>((resolve) => this.waiting.push(resolve));
      if (next) return next;
    }
  }

  private release(shell: ResidentShell): void {
    if (shell.dead || this.closed) {
      this.count--;
      if (!shell.dead) shell.close();
      this.waiting.shift()?.(undefined);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(shell);
    else this.idle.push(shell);
  }
}

function aborted(operation: string, path: string | undefined, cause: unknown): OperationError {
  return new OperationError("aborted", `${operation} aborted`, {
    operation,
    cause,
    ...(path ? { path } : {}),
  });
}
