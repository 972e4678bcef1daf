import { describe, expect, it } from "vitest";
import { EventStream } from "../src/event-stream.js";

describe("EventStream", () => {
  it("buffers events pushed before iteration and delivers them in order, then the result", async () => {
    const stream = new EventStream<number, string>();
    for (let i = 0; i < 3; i++) stream.push(i);
    stream.end("done");
    stream.push(99);
    const seen: number[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen).toEqual([0, 1, 2]);
    expect(await stream.result()).toBe("done");
  });

  it("loses and reorders nothing when the reader never catches up with a long queue", async () => {
    const stream = new EventStream<number, void>();
    let pushed = 0;
    const pushMore = (count: number) => {
      for (let i = 0; i < count; i++) stream.push(pushed++);
    };
    pushMore(1100);
    const seen: number[] = [];
    for await (const event of stream) {
      seen.push(event);
      // Three more for every two read: the queue keeps growing past the point where read
      // events are dropped from it, and is never read to its end until the producer stops.
      if (seen.length % 2 === 0 && pushed < 20_000) pushMore(3);
      // Ended with events still queued: they are delivered before iteration stops.
      if (pushed >= 20_000) stream.end();
    }
    expect(seen).toEqual(Array.from({ length: pushed }, (_, i) => i));
  });

  it("fail ends iteration and rejects result; an unobserved failure is not an unhandled rejection", async () => {
    const stream = new EventStream<number, void>();
    stream.push(1);
    stream.fail(new Error("broken"));
    const seen: number[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen).toEqual([1]);
    await expect(stream.result()).rejects.toThrow("broken");
    new EventStream<number, void>().fail(new Error("nobody listens"));
  });
});
