/** Read events kept before the queue drops them (when they are also half of it). */
const COMPACT_AFTER = 1024;

/**
 * A push-based async iterable of events that ends with a result. The producer calls `push`
 * and finally `end(result)` (or `fail(error)`); one consumer iterates with `for await`, and
 * anyone may await `result()`. Events pushed before iteration starts are buffered, never lost.
 */
export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
  /** Events not yet read: `#queue[#head]` onwards (an index, not `shift`, which copies a long queue). */
  #queue: TEvent[] = [];
  #head = 0;
  #waiting: ((next: IteratorResult<TEvent>) => void) | undefined;
  #done = false;
  readonly #result: Promise<TResult>;
  #resolve!: (value: TResult) => void;
  #reject!: (error: unknown) => void;

  constructor() {
    this.#result = new Promise<TResult>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A failed run nobody awaits must not become an unhandled rejection that kills the host.
    this.#result.catch(() => {});
  }

  /** Adds an event. Ignored after `end`/`fail`. */
  push(event: TEvent): void {
    if (this.#done) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ value: event, done: false });
    } else {
      this.#queue.push(event);
    }
  }

  /** Ends the stream with its result. */
  end(result: TResult): void {
    if (this.#done) return;
    this.#done = true;
    this.#resolve(result);
    this.#wakeFinished();
  }

  /** Ends the stream with an error: iteration finishes, `result()` rejects. */
  fail(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#reject(error);
    this.#wakeFinished();
  }

  /** The final result, once the stream ends. */
  result(): Promise<TResult> {
    return this.#result;
  }

  #wakeFinished(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<TEvent> {
    return {
      next: () => {
        if (this.#head < this.#queue.length) {
          const event = this.#queue[this.#head] as TEvent;
          this.#head += 1;
          if (this.#head === this.#queue.length) {
            // Read to the end: start over, so the array does not keep what was read.
            this.#queue = [];
            this.#head = 0;
          } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#queue.length) {
            // A reader that never catches up: drop what was read, at most once per half a queue.
            this.#queue = this.#queue.slice(this.#head);
            this.#head = 0;
          }
          return Promise.resolve({ value: event, done: false });
        }
        if (this.#done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
    };
  }
}
