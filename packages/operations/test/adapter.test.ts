import { describe, expect, it } from "vitest";
import {
  ConnectOnce,
  checkAdapterOptions,
  checkOptions,
  EXEC_DEFAULTS,
  quoteValue,
  RunningCommands,
  settleWithin,
} from "../src/adapter/index.js";
import { isOperationError } from "../src/index.js";

describe("checkOptions", () => {
  const spec = {
    maxChannels: "positive-integer",
    grace: "non-negative-number",
    name: "non-empty-string",
  } as const;

  it("names an unknown option and lists the known ones", () => {
    expect(() => checkOptions("factory", { maxChanels: 2 }, spec)).toThrow(
      new TypeError("factory: unknown option maxChanels. Options: maxChannels, grace, name."),
    );
  });

  it("quotes a number out of range (RangeError) and a value of the wrong type (TypeError)", () => {
    expect(() => checkOptions("factory", { maxChannels: 0 }, spec)).toThrow(
      new RangeError("factory: option maxChannels must be a positive integer; got 0 (number)."),
    );
    expect(() => checkOptions("factory", { grace: Number.NaN }, spec)).toThrow(RangeError);
    expect(() => checkOptions("factory", { grace: "2s" }, spec)).toThrow(
      new TypeError('factory: option grace must be a number of 0 or more; got "2s" (string).'),
    );
    expect(() => checkOptions("factory", { name: " " }, spec)).toThrow(
      /must be a non-empty string; got " " \(string\)/,
    );
  });

  it("takes a rule of its own, and undefined as absent", () => {
    const own = {
      mode: { expected: '"auto" or false', test: (value: unknown) => value === "auto" || value === false },
    };
    expect(() => checkOptions("factory", { mode: "auto" }, own)).not.toThrow();
    expect(() => checkOptions("factory", { mode: undefined }, own)).not.toThrow();
    expect(() => checkOptions("factory", { mode: true }, own)).toThrow(
      'factory: option mode must be "auto" or false; got true (boolean).',
    );
  });

  it("quotes values with their type", () => {
    expect(quoteValue([1, 2])).toBe("[1,2] (array)");
    expect(quoteValue(null)).toBe("null");
  });

  it("checkAdapterOptions throws the same message as an OperationError invalid_argument", () => {
    let caught: unknown;
    try {
      checkAdapterOptions("createX", { maxChannels: -1 }, spec);
    } catch (error) {
      caught = error;
    }
    expect(isOperationError(caught, "invalid_argument")).toBe(true);
    expect((caught as Error).message).toBe(
      "createX: option maxChannels must be a positive integer; got -1 (number).",
    );
    expect((caught as Error).cause).toBeInstanceOf(RangeError);
  });
});

describe("RunningCommands", () => {
  /** A call that settles only when its signal aborts, with the reason. */
  const untilAborted = (signal: AbortSignal) =>
    new Promise<unknown>((resolve) => {
      if (signal.aborted) resolve(signal.reason);
      else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
    });

  it("cancelAll aborts every running call and waits until each has settled", async () => {
    const running = new RunningCommands();
    const calls = [running.run(undefined, untilAborted), running.run(undefined, untilAborted)];
    expect(running.size).toBe(2);
    const reason = new Error("disposed");
    await running.cancelAll(reason);
    expect(running.size).toBe(0);
    expect(await Promise.all(calls)).toEqual([reason, reason]);
  });

  it("follows the caller's signal, also one aborted before the call", async () => {
    const running = new RunningCommands();
    const caller = new AbortController();
    const call = running.run(caller.signal, untilAborted);
    caller.abort("stop");
    expect(await call).toBe("stop");
    const early = AbortSignal.abort("early");
    expect(await running.run(early, untilAborted)).toBe("early");
    expect(running.size).toBe(0);
  });

  it("forgets a settled call, and passes a start that throws on as a rejection", async () => {
    const running = new RunningCommands<number>();
    expect(await running.run(undefined, async () => 7)).toBe(7);
    expect(running.size).toBe(0);
    await expect(
      running.run(undefined, () => {
        throw new Error("no start");
      }),
    ).rejects.toThrow("no start");
  });
});

describe("settleWithin and the defaults", () => {
  it("resolves when the promise settles, either way", async () => {
    await settleWithin(Promise.reject(new Error("x")), 60_000);
    await settleWithin(Promise.resolve(1), 60_000);
  });

  it("resolves after the bound when the promise never settles", async () => {
    await settleWithin(new Promise(() => {}), 10);
  });

  it("the exec defaults are the documented ones", () => {
    expect(EXEC_DEFAULTS).toEqual({ killGraceMs: 2000, idleGraceMs: 100 });
  });
});

describe("ConnectOnce", () => {
  it("connects once for every caller, and calls wrapped with after() wait for it", async () => {
    let attempts = 0;
    const connection = new ConnectOnce(async () => ({ attempt: ++attempts }));
    const double = connection.after(async (value: number, _options?: { signal?: AbortSignal }) => value * 2);
    expect(await Promise.all([double(2), double(3), connection.ready(undefined)])).toEqual([
      4,
      6,
      { attempt: 1 },
    ]);
    expect(connection.known).toEqual({ attempt: 1 });
    expect(attempts).toBe(1);
  });

  it("forgets a failed attempt: the next call tries again", async () => {
    let attempts = 0;
    const connection = new ConnectOnce(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("not yet");
      return "up";
    });
    await expect(connection.ready(undefined)).rejects.toThrow("not yet");
    expect(connection.known).toBeUndefined();
    expect(await connection.ready(undefined)).toBe("up");
  });

  it("a caller's signal bounds its own wait (aborted), not the attempt", async () => {
    let finish!: (value: string) => void;
    const connection = new ConnectOnce(() => new Promise<string>((resolve) => (finish = resolve)));
    const controller = new AbortController();
    const waiting = connection.ready(controller.signal);
    controller.abort();
    const error = await waiting.catch((caught: unknown) => caught);
    expect(isOperationError(error, "aborted")).toBe(true);
    const other = connection.ready(undefined);
    finish("up");
    expect(await other).toBe("up");
  });
});
