import { StaleContextError } from "./stale-context.js";

/**
 * What tools keep from call to call in one session, under typed keys. A tool declares its key
 * once (`sessionKey<JobRegistry>("shell.jobs")`) and reads and writes through it, so a value's
 * type is known wherever the key is, and no table keyed by some other per-session object is
 * needed.
 */

/** A typed key of {@link SessionState}. Two keys are the same key only if they are the same object. */
export interface SessionKey<T> {
  /** For messages and debugging; not what identifies the key. */
  readonly name: string;
  /** Phantom: the type of the value (never set). */
  readonly type?: T;
}

/** Declares a key of session state holding values of type `T`. */
export function sessionKey<T>(name: string): SessionKey<T> {
  return Object.freeze({ name });
}

/**
 * Session state: values under {@link SessionKey}s. What a value needs at the session's end is
 * done by whoever ends the session (e.g. `ToolContext.dispose()` ends the shell's jobs).
 */
export class SessionState {
  readonly #values = new Map<SessionKey<unknown>, unknown>();
  #closedAs: string | undefined;

  /**
   * Marks the session closed (its host disposed it): from now on {@link assertOpen}, and so the
   * making of every call's context, fails with `stale_context` naming `what` ("this tool session
   * (s1)"). Copies of the session object share this state, so they are closed too.
   */
  close(what: string): void {
    this.#closedAs ??= what;
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.#closedAs !== undefined;
  }

  /** Throws {@link StaleContextError} once the session is closed. */
  assertOpen(): void {
    if (this.#closedAs !== undefined) throw new StaleContextError(this.#closedAs);
  }

  /** The value under `key`, if any. */
  get<T>(key: SessionKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  /** Sets the value under `key`. */
  set<T>(key: SessionKey<T>, value: T): void {
    this.#values.set(key, value);
  }

  /** The value under `key`, made by `create` (once) when there is none yet. */
  getOrCreate<T>(key: SessionKey<T>, create: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = create();
    this.#values.set(key, value);
    return value;
  }

  /** Removes the value under `key`. */
  delete(key: SessionKey<unknown>): void {
    this.#values.delete(key);
  }
}
