import { describe, expect, it } from "vitest";
import {
  codeFromErrno,
  isOperationError,
  OperationError,
  raceAbort,
  throwIfAborted,
  toOperationError,
} from "../src/index.js";

describe("OperationError", () => {
  it("carries code, path, operation and cause", () => {
    const cause = new Error("inner");
    const error = new OperationError("not_found", "gone", { path: "/x", operation: "stat", cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "OperationError", code: "not_found", path: "/x", operation: "stat" });
    expect(error.cause).toBe(cause);
  });

  it("isOperationError checks the class or the shape, optionally the code", () => {
    const error = new OperationError("exists", "there");
    expect(isOperationError(error)).toBe(true);
    expect(isOperationError(error, "exists", "not_found")).toBe(true);
    expect(isOperationError(error, "not_found")).toBe(false);
    // A copy from another version of the package still counts.
    expect(isOperationError({ name: "OperationError", code: "exists", message: "" }, "exists")).toBe(true);
    expect(isOperationError(new Error("x"))).toBe(false);
    expect(isOperationError(undefined)).toBe(false);
  });

  it("toOperationError maps errno codes and keeps the cause", () => {
    const system = Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });
    const error = toOperationError(system, { path: "/a", operation: "readFile" });
    expect(error).toMatchObject({ code: "not_found", path: "/a", operation: "readFile" });
    expect(error.cause).toBe(system);
    expect(error.message).toContain("/a");
    expect(codeFromErrno("EISDIR")).toBe("is_directory");
    // An argument list too long for a new process (a huge pattern in argv) is an argument error.
    expect(codeFromErrno("E2BIG")).toBe("invalid_argument");
    expect(codeFromErrno("EWHATEVER")).toBe("unknown");
    expect(codeFromErrno(undefined)).toBe("unknown");
  });

  it("toOperationError passes an OperationError through and maps AbortError to aborted", () => {
    const original = new OperationError("timeout", "slow");
    expect(toOperationError(original)).toBe(original);
    const abort = new DOMException("stop", "AbortError");
    expect(toOperationError(abort).code).toBe("aborted");
    const unknown = toOperationError("a string");
    expect(unknown.code).toBe("unknown");
  });

  it("throwIfAborted throws aborted only when the signal fired", () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    let caught: unknown;
    try {
      throwIfAborted(AbortSignal.abort("why"), "readFile");
    } catch (error) {
      caught = error;
    }
    expect(isOperationError(caught, "aborted")).toBe(true);
    expect((caught as OperationError).operation).toBe("readFile");
  });
});

describe("raceAbort", () => {
  it("resolves with the promise when no abort comes", async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal, "stat")).resolves.toBe(7);
  });

  it("rejects with an aborted OperationError as soon as the signal fires, without waiting", async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => {});
    const raced = raceAbort(never, controller.signal, "readFile");
    controller.abort(new Error("stop"));
    const error = await raced.catch((e: unknown) => e);
    expect(isOperationError(error, "aborted")).toBe(true);
    expect((error as OperationError).operation).toBe("readFile");
  });

  it("rejects at once for a signal that already fired, and passes the promise's own failure through", async () => {
    const fired = AbortSignal.abort();
    await expect(raceAbort(Promise.resolve(1), fired, "x")).rejects.toMatchObject({ code: "aborted" });
    const failing = Promise.reject(new OperationError("not_found", "missing"));
    await expect(raceAbort(failing, new AbortController().signal, "x")).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
