import { expect, it, type TestContext } from "vitest";
import { isOperationError, type OperationErrorCode } from "../errors.js";
import type { Operations } from "../types.js";

/** What `makeOps` hands to the suite. */
export interface ConformanceSubject {
  /** The adapter under test. */
  ops: Operations;
  /**
   * A fresh, empty, absolute directory in the environment (its own path syntax). The suite writes
   * only below it.
   */
  root: string;
  /** Called once after the suite (remove `root`, close connections, stop servers). */
  cleanup?: () => Promise<void> | void;
  /**
   * A second adapter object on the same environment, with its own connection or session (a
   * second SSH connection, a second Engine API client): the concurrent-writers check runs one
   * writer on each, as two host processes would, and disposes it after. Without it both writers
   * share `ops`, which still proves the compare and the rename are one step for two callers.
   */
  openAnother?: () => Promise<Operations> | Operations;
}

/** Creates the subject once per suite. */
export type MakeOperations = () => Promise<ConformanceSubject> | ConformanceSubject;

/**
 * What an adapter declares about itself. A capability declared absent is not skipped silently:
 * the suite then checks that the adapter really does not offer it.
 */
export interface ConformanceOptions {
  /** The adapter provides `ops.search` (default true). With false, `ops.search` must be undefined. */
  search?: boolean;
  /** The adapter provides `ops.listTree` (default true). With false, `ops.listTree` must be undefined. */
  listTree?: boolean;
  /**
   * The adapter runs commands (default true). With false (an environment that only stores
   * files: an in-memory store, an object store, a file-sync API), the exec checks and the one
   * file check that needs a command (a FIFO made with `mkfifo`) are replaced by one check that
   * `exec` refuses with `not_supported`; every other file check runs as it is.
   */
  exec?: boolean;
  /** Shells the exec checks run in (default `["sh", "bash"]`); the first one runs most checks. */
  shells?: ("sh" | "bash")[];
  /** Size of the big fixture file (default 50 MiB, as the contract asks). */
  bigFileBytes?: number;
  /** Multiplies every per-test timeout (remote adapters are slower; default 1). */
  slowFactor?: number;
  /**
   * Rounds each of the two writers of the concurrent-writers check makes (default 1000): read the
   * shared file, append a number to its own line, write it back with `expect`. A remote adapter
   * may lower it to keep the suite fast; run the default at least once.
   */
  concurrentWriteRounds?: number;
}

/** Shared state of one suite run, filled in `beforeAll`. */
export interface SuiteContext {
  readonly ops: Operations;
  readonly root: string;
  readonly options: Required<ConformanceOptions>;
  /** Joins `parts` under `root` with the environment's separator. */
  path(...parts: string[]): string;
  /** A per-test timeout in ms, scaled by `slowFactor`. */
  timeout(ms: number): number;
}

/** Joins path segments with the separator of `platform`. */
export function joinPath(platform: Operations["platform"], base: string, ...parts: string[]): string {
  const separator = platform === "win32" ? "\\" : "/";
  let result = base;
  for (const part of parts) result = result.endsWith(separator) ? result + part : result + separator + part;
  return result;
}

/** Asserts that `action` rejects with an `OperationError` of one of `codes`. */
export async function expectCode(
  action: Promise<unknown> | (() => Promise<unknown>),
  ...codes: OperationErrorCode[]
): Promise<void> {
  let error: unknown;
  try {
    await (typeof action === "function" ? action() : action);
  } catch (caught) {
    error = caught;
  }
  const actual = isOperationError(error)
    ? `OperationError ${error.code}: ${error.message}`
    : error === undefined
      ? "no error"
      : `a non-OperationError: ${String(error)}`;
  expect(isOperationError(error, ...codes), `expected OperationError ${codes.join("|")}, got ${actual}`).toBe(
    true,
  );
}

/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** Concatenates byte chunks. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const result = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    result.set(chunk, offset);
    offset += chunk.length;
  }
  return result;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
/** `bytes` decoded as UTF-8. */
export const text = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Sorted copy, for comparing results whose order the contract leaves open. */
export const sorted = <T>(items: readonly T[]): T[] => [...items].sort();

/** True when two byte arrays are equal (fast path for large buffers, no per-byte expect). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Default per-test timeout before `slowFactor` (ms). */
const DEFAULT_TEST_TIMEOUT_MS = 30_000;

/** `it` with a timeout (default 30 s) multiplied by the adapter's `slowFactor`. */
export function scaledIt(options: Required<ConformanceOptions>) {
  return (
    name: string,
    fn: (context: TestContext) => Promise<void> | void,
    timeoutMs = DEFAULT_TEST_TIMEOUT_MS,
  ): void => {
    it(name, fn, timeoutMs * options.slowFactor);
  };
}
