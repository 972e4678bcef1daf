/**
 * The first step of every tool call: a plain-data copy of the arguments. Arguments come from
 * JSON (a model, an MCP client) or from a JavaScript host, which may hand over getters that
 * throw, Proxies, cycles or values that change between two reads. Copying them once, up front,
 * turns all of that into a typed `invalid_arguments` answer instead of an exception inside
 * validation or the tool, and the tool runs on exactly what was validated.
 *
 * The copy also refuses keys that reach an object's prototype when assigned: JSON.parse makes
 * `{"__proto__": {...}}` an ordinary own key, and a plain `out[key] = value` later would make
 * its fields readable through the prototype of the repaired object (and so executed).
 */
import { shortenInput } from "./quote-input.js";
import type { ArgumentProblem } from "./validation-message.js";

/** Keys refused anywhere in arguments, at any depth. */
export const FORBIDDEN_ARGUMENT_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** Deepest nesting of arrays and objects accepted in arguments. */
export const ARGUMENT_MAX_DEPTH = 64;

/** Most values (strings, numbers, items, fields...) accepted in one call's arguments. */
export const ARGUMENT_MAX_VALUES = 1_000_000;

/** Characters of a key or an error message quoted in a problem. */
const QUOTE_CHARS = 60;

/** A plain-data copy of arguments, or the problem that made one impossible. */
export type ArgumentSnapshot = { ok: true; value: unknown } | { ok: false; problem: ArgumentProblem };

const FORBIDDEN = new Set(FORBIDDEN_ARGUMENT_KEYS);

class Refused extends Error {
  constructor(readonly problem: ArgumentProblem) {
    super(problem.received);
  }
}

/**
 * Copies `raw` into plain arrays, plain objects and primitives (own enumerable string keys
 * only). Refuses, as a problem: a key in {@link FORBIDDEN_ARGUMENT_KEYS}, a cycle, nesting
 * deeper than {@link ARGUMENT_MAX_DEPTH}, more than {@link ARGUMENT_MAX_VALUES} values, and
 * anything that throws when read (a getter, a Proxy trap). Never throws; linear in the size of
 * the arguments.
 */
export function snapshotArguments(raw: unknown): ArgumentSnapshot {
  const state: CopyState = { values: 0, ancestors: [] };
  try {
    return { ok: true, value: copy(raw, undefined, 0, state) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    return { ok: false, problem: unreadable("arguments", error) };
  }
}

/**
 * Where the first key in {@link FORBIDDEN_ARGUMENT_KEYS} inside `value` is (own keys, any
 * depth), or undefined. Used after repairs that parse JSON text, which can bring such keys back.
 */
export function findForbiddenKey(value: unknown): { field: string; key: string } | undefined {
  const found = forbiddenIn(value, undefined, 0);
  return found === undefined ? undefined : { field: fieldOf(found), key: String(found.key) };
}

function forbiddenIn(value: unknown, path: PathNode | undefined, depth: number): PathNode | undefined {
  if (typeof value !== "object" || value === null || depth > ARGUMENT_MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item !== "object" || item === null) continue;
      const found = forbiddenIn(item, { parent: path, key: index }, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN.has(key)) return { parent: path, key };
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== "object" || item === null) continue;
    const found = forbiddenIn(item, { parent: path, key }, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The problem reported for `key` (one of {@link FORBIDDEN_ARGUMENT_KEYS}) at `field`. */
export function forbiddenKeyProblem(field: string, key: string): ArgumentProblem {
  return {
    field: shortenInput(field, QUOTE_CHARS),
    expected: `no key named ${key}`,
    received: `a ${key} key`,
    fix: `Remove ${key} and send its fields directly in the object that holds it.`,
  };
}

/** Where a value sits, built into a string only when a problem names it. */
interface PathNode {
  parent: PathNode | undefined;
  key: string | number;
}

interface CopyState {
  values: number;
  /** The objects on the path to the one being copied (at most ARGUMENT_MAX_DEPTH). */
  ancestors: object[];
}

/**
 * Gives `target`, a fresh `{}`, the own, enumerable, writable data field `key`. A plain
 * assignment does exactly that unless `Object.prototype` has the key: `__proto__` (whose setter
 * would change the prototype), or a setter or read-only field a polluted or frozen prototype
 * holds. Only those keys take `Object.defineProperty`, which costs about ten assignments.
 */
export function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in Object.prototype) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** `edits[0].oldText` for a path node; `arguments` for the root. */
function fieldOf(node: PathNode | undefined): string {
  const parts: (string | number)[] = [];
  for (let at = node; at !== undefined; at = at.parent) parts.push(at.key);
  let field = "";
  for (const part of parts.reverse()) {
    field = typeof part === "number" ? `${field}[${part}]` : field === "" ? part : `${field}.${part}`;
  }
  return shortenInput(field === "" ? "arguments" : field, QUOTE_CHARS);
}

function tooMany(): Refused {
  return new Refused({
    field: "arguments",
    expected: `at most ${ARGUMENT_MAX_VALUES.toLocaleString("en-US")} values`,
    received: "more",
    fix: "Send fewer items per call (split the work into several calls).",
  });
}

function copy(value: unknown, path: PathNode | undefined, depth: number, state: CopyState): unknown {
  if (++state.values > ARGUMENT_MAX_VALUES) throw tooMany();
  if (typeof value !== "object" || value === null) return value;
  if (depth >= ARGUMENT_MAX_DEPTH) {
    throw new Refused({
      field: fieldOf(path),
      expected: `at most ${ARGUMENT_MAX_DEPTH} levels of nesting`,
      received: "deeper nesting",
      fix: "Send flat arguments as the tool's parameters describe.",
    });
  }
  if (state.ancestors.includes(value)) {
    throw new Refused({
      field: fieldOf(path),
      expected: "plain data (JSON)",
      received: "an object that contains itself",
      fix: "Send arguments as plain JSON data.",
    });
  }
  let keys: string[] | undefined;
  let length = 0;
  try {
    // A Proxy may throw from any of these traps.
    if (Array.isArray(value)) length = Number(value.length);
    else keys = Object.keys(value);
  } catch (error) {
    throw new Refused(unreadable(fieldOf(path), error));
  }
  // Each item counts as a value: an array longer than what is left of the budget never fits.
  if (length > ARGUMENT_MAX_VALUES - state.values) throw tooMany();
  state.ancestors.push(value);
  try {
    if (keys === undefined) {
      const out: unknown[] = [];
      for (let index = 0; index < length; index++) {
        out.push(readAndCopy(value as unknown[], path, index, depth, state));
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      if (FORBIDDEN.has(key)) throw new Refused(forbiddenKeyProblem(fieldOf({ parent: path, key }), key));
      defineField(out, key, readAndCopy(value as Record<string, unknown>, path, key, depth, state));
    }
    return out;
  } finally {
    state.ancestors.pop();
  }
}

/** Reads `holder[key]` and copies it; a path node is made only for a nested object (or a problem). */
function readAndCopy(
  holder: unknown[] | Record<string, unknown>,
  parent: PathNode | undefined,
  key: string | number,
  depth: number,
  state: CopyState,
): unknown {
  let child: unknown;
  try {
    child = (holder as Record<string | number, unknown>)[key];
  } catch (error) {
    throw new Refused(unreadable(fieldOf({ parent, key }), error));
  }
  if (typeof child !== "object" || child === null) {
    if (++state.values > ARGUMENT_MAX_VALUES) throw tooMany();
    return child;
  }
  return copy(child, { parent, key }, depth + 1, state);
}

function unreadable(field: string, error: unknown): ArgumentProblem {
  return {
    field,
    expected: "plain data (JSON)",
    received: `a value that throws when read (${shortenInput(reasonOf(error), QUOTE_CHARS)})`,
    fix: "Send arguments as plain JSON data.",
  };
}

/** `error.message` or its string form; never throws (a thrown object may throw again when printed). */
export function reasonOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "an error that cannot be printed";
  }
}
