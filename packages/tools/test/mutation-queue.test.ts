import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OperationError, type Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { createFileMutationQueue } from "@tackle/session";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";

let dir: string;
const local = createLocalOperations();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-queue-"));
  await writeFile(join(dir, "a.txt"), "a");
  await symlink(join(dir, "a.txt"), join(dir, "alias.txt"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Local operations whose realpath answers after `delayFor(path)` ms, to make key resolution race. */
function slowRealpath(delayFor: (path: string) => number): Operations {
  return {
    ...local,
    realpath: async (path, options) => {
      await new Promise((resolve) => setTimeout(resolve, delayFor(path)));
      return local.realpath(path, options);
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("file mutation queue", () => {
  it("keys a path the caller resolved as given (no second realpath) and still serialises it with other spellings", async () => {
    const asked: string[] = [];
    const counting: Operations = {
      ...local,
      realpath: (path, options) => {
        asked.push(path);
        return local.realpath(path, options);
      },
    };
    const queue = createFileMutationQueue(counting);
    const real = await local.realpath(join(dir, "a.txt"));
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.withFileMutation(
      real,
      async () => {
        order.push("resolved:start");
        await held;
        order.push("resolved:end");
      },
      { real: true },
    );
    const second = queue.withFileMutation(join(dir, "alias.txt"), async () => {
      order.push("alias");
    });
    await expect.poll(() => order.length).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["resolved:start", "resolved:end", "alias"]);
    expect(asked).not.toContain(real);
  });

  it("runs mutations of one file one at a time, in call order, even when key resolution is slower for earlier calls", async () => {
    let calls = 0;
    // The first call's realpath is the slowest: it must still run first.
    const queue = createFileMutationQueue(slowRealpath(() => Math.max(0, 40 - 10 * calls++)));
    const order: number[] = [];
    let running = 0;
    let overlap = false;
    const job = (n: number) => async () => {
      running++;
      if (running > 1) overlap = true;
      await tick();
      order.push(n);
      running--;
    };
    await Promise.all([0, 1, 2, 3].map((n) => queue.withFileMutation(join(dir, "a.txt"), job(n))));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(overlap).toBe(false);
  });

  it("queues of two adapter objects with one id share each file's place in line; other ids do not wait", async () => {
    // Two local adapters (two contexts, two agents in one host): one file, reached by a link in one.
    const first = createFileMutationQueue(createLocalOperations());
    const second = createFileMutationQueue(createLocalOperations());
    const elsewhere = createFileMutationQueue({ ...createLocalOperations(), id: "local-other" });
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const a = first.withFileMutation(join(dir, "a.txt"), async () => {
      events.push("first:start");
      started();
      await held;
      events.push("first:end");
    });
    await running;
    const b = second.withFileMutation(join(dir, "alias.txt"), async () => {
      events.push("second");
    });
    // A queue of another environment id does not wait for the held file.
    await elsewhere.withFileMutation(join(dir, "a.txt"), async () => {
      events.push("elsewhere");
    });
    release();
    await Promise.all([a, b]);
    expect(events).toEqual(["first:start", "elsewhere", "first:end", "second"]);
  });

  it("keys by real path: a link and its target share a queue", async () => {
    const queue = createFileMutationQueue(local);
    const events: string[] = [];
    const first = queue.withFileMutation(join(dir, "a.txt"), async () => {
      events.push("a:start");
      await tick();
      events.push("a:end");
    });
    const second = queue.withFileMutation(join(dir, "alias.txt"), async () => {
      events.push("alias");
    });
    await Promise.all([first, second]);
    expect(events).toEqual(["a:start", "a:end", "alias"]);
  });

  it("keys a new file by its nearest existing parent's real path", async () => {
    const queue = createFileMutationQueue(local);
    const events: string[] = [];
    await Promise.all([
      queue.withFileMutation(join(dir, "new", "..", "fresh.txt"), async () => {
        events.push("one:start");
        await tick();
        events.push("one:end");
      }),
      queue.withFileMutation(join(dir, "fresh.txt"), async () => {
        events.push("two");
      }),
    ]);
    expect(events).toEqual(["one:start", "one:end", "two"]);
  });

  it("runs mutations of different files in parallel", async () => {
    const queue = createFileMutationQueue(local);
    // Each job waits until both run: run one at a time, the first would never finish (the test
    // then fails by its timeout) instead of passing or failing by how fast the machine is.
    let running = 0;
    let bothRunning!: () => void;
    const both = new Promise<void>((resolve) => (bothRunning = resolve));
    const job = async () => {
      if (++running === 2) bothRunning();
      await both;
    };
    await Promise.all([
      queue.withFileMutation(join(dir, "x1"), job),
      queue.withFileMutation(join(dir, "x2"), job),
    ]);
    expect(running).toBe(2);
  });

  it("gives up a waiting place on abort without running, and later calls still run in order", async () => {
    const queue = createFileMutationQueue(local);
    let release!: () => void;
    const events: string[] = [];
    const holder = queue.withFileMutation(join(dir, "a.txt"), () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiting = queue.withFileMutation(
      join(dir, "a.txt"),
      async () => void events.push("aborted one ran"),
      {
        signal: controller.signal,
      },
    );
    const later = queue.withFileMutation(join(dir, "a.txt"), async () => void events.push("later"));
    // The holder runs (so the aborted call is waiting, not yet started) before the abort.
    await eventually(() => release !== undefined);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "aborted" });
    expect(events).toEqual([]);
    release();
    await Promise.all([holder, later]);
    expect(events).toEqual(["later"]);
  });

  it("keeps the lock of an aborted running mutation until its work settles", async () => {
    const keyed: string[] = [];
    const queue = createFileMutationQueue({
      ...local,
      realpath: async (path, options) => {
        const real = await local.realpath(path, options);
        keyed.push(path);
        return real;
      },
    });
    const controller = new AbortController();
    const events: string[] = [];
    let finishIo!: () => void;
    const running = queue.withFileMutation(
      join(dir, "a.txt"),
      async () => {
        events.push("io:start");
        await new Promise<void>((r) => (finishIo = r));
        events.push("io:end");
      },
      { signal: controller.signal },
    );
    const next = queue.withFileMutation(join(dir, "a.txt"), async () => void events.push("next"));
    await eventually(() => events.includes("io:start"));
    controller.abort();
    // Both keys resolved: a lock given up on abort would have let `next` run by the next turn.
    await eventually(() => keyed.length >= 2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(["io:start"]);
    finishIo();
    await Promise.all([running, next]);
    expect(events).toEqual(["io:start", "io:end", "next"]);
  });

  it("withExclusive waits for running mutations and holds new ones until it settles", async () => {
    const queue = createFileMutationQueue(local);
    const events: string[] = [];
    const before = queue.withFileMutation(join(dir, "a.txt"), async () => {
      events.push("before:start");
      await tick();
      events.push("before:end");
    });
    const exclusive = queue.withExclusive(async () => {
      events.push("exclusive:start");
      await tick();
      events.push("exclusive:end");
    });
    const after = queue.withFileMutation(join(dir, "other.txt"), async () => void events.push("after"));
    await Promise.all([before, exclusive, after]);
    expect(events).toEqual(["before:start", "before:end", "exclusive:start", "exclusive:end", "after"]);
  });

  it("is shared by every context on one adapter object", async () => {
    const one = createToolContext({ cwd: dir, operations: local });
    const two = createToolContext({ cwd: dir, operations: local });
    expect(one.mutations).toBe(two.mutations);
  });

  it("is not shared by two adapter objects that report the same id", async () => {
    const one = createToolContext({ cwd: dir, operations: local });
    const other = createLocalOperations();
    expect(other.id).toBe(local.id);
    const two = createToolContext({ cwd: dir, operations: other });
    expect(one.mutations).not.toBe(two.mutations);
  });

  it("keys through its own adapter: disposing another adapter with the same id leaves a link and its target serialised", async () => {
    const resolved: string[] = [];
    const base = createLocalOperations();
    const live: Operations = {
      ...base,
      realpath: async (path, options) => {
        const real = await base.realpath(path, options);
        resolved.push(path);
        return real;
      },
    };
    const context = createToolContext({ cwd: dir, operations: live });
    // Made after `live`, with the same id, then disposed: its calls fail from then on, like a
    // closed SSH connection. A queue found by id resolved keys through it and lost the link.
    const closing = refusingAfterDispose(createLocalOperations());
    const closingContext = createToolContext({ cwd: dir, operations: closing });
    expect(closing.id).toBe(live.id);
    await closingContext.dispose();
    await closing.dispose?.();

    const events: string[] = [];
    let release!: () => void;
    const first = context.mutations.withFileMutation(join(dir, "a.txt"), async () => {
      events.push("target:start");
      await new Promise<void>((resolve) => (release = resolve));
      events.push("target:end");
    });
    const second = context.mutations.withFileMutation(join(dir, "alias.txt"), async () => {
      events.push("link");
    });
    // Once the link's key is resolved (or, keyed wrongly, once it ran), it must still be waiting.
    await eventually(() => resolved.includes(join(dir, "alias.txt")) || events.includes("link"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(["target:start"]);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(["target:start", "target:end", "link"]);
  });
});

/** `ops` whose file calls fail with `connection_lost` once it is disposed (as a remote adapter's do). */
function refusingAfterDispose(ops: Operations): Operations {
  let disposed = false;
  const refuse = () => {
    if (disposed) throw new OperationError("connection_lost", "disposed", { operation: "realpath" });
  };
  return {
    ...ops,
    realpath: async (path, options) => {
      refuse();
      return ops.realpath(path, options);
    },
    lstat: async (path, options) => {
      refuse();
      return ops.lstat(path, options);
    },
    dispose: async () => {
      disposed = true;
      await ops.dispose?.();
    },
  };
}

async function eventually(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000, interval: 1 });
}
