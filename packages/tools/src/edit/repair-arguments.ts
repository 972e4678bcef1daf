/**
 * `prepareArguments` of the edit tool: turns the argument shapes real models send into
 * `{path, edits: [{oldText, newText, replaceAll?}], dryRun?}`. It never throws; what it cannot
 * repair goes on unchanged and validation explains what is wrong.
 */
import { type ArgumentProblem, ToolError } from "@tackle/agent-core";

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Escapes raw control characters inside JSON string literals (a model that writes a real
 * newline or tab inside `"..."` produces invalid JSON).
 */
export function escapeRawControlCharacters(json: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of json) {
    if (!inString) {
      inString = char === '"';
      out += char;
    } else if (escaped) {
      escaped = false;
      out += char;
    } else if (char === "\\") {
      escaped = true;
      out += char;
    } else if (char === '"') {
      inString = false;
      out += char;
    } else if (char < " ") {
      out += CONTROL_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
    } else {
      out += char;
    }
  }
  return out;
}

const CONTROL_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Parses JSON a model wrote, repairing raw newlines and tabs in strings; undefined when it is not JSON. */
export function parseLenientJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[") && !trimmed.startsWith('"')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    try {
      return JSON.parse(escapeRawControlCharacters(trimmed));
    } catch {
      return undefined;
    }
  }
}

const OLD_KEYS = ["oldText", "old_text", "old_string", "oldString", "old_str", "old"] as const;
const NEW_KEYS = ["newText", "new_text", "new_string", "newString", "new_str", "new"] as const;
const REPLACE_ALL_KEYS = ["replaceAll", "replace_all"] as const;
const PATH_KEYS = ["path", "file_path", "filePath", "file"] as const;

function pick(record: Json, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) if (key in record) return { key, value: record[key] };
  return undefined;
}

/** Normalises one edit object's keys; values other than objects pass unchanged. */
function repairEdit(raw: unknown): unknown {
  const value = typeof raw === "string" ? (parseLenientJson(raw) ?? raw) : raw;
  if (!isRecord(value)) return value;
  const oldText = pick(value, OLD_KEYS);
  const newText = pick(value, NEW_KEYS);
  const replaceAll = pick(value, REPLACE_ALL_KEYS);
  const out: Json = { ...value };
  for (const key of [...OLD_KEYS, ...NEW_KEYS, ...REPLACE_ALL_KEYS]) delete out[key];
  if (oldText) out.oldText = oldText.value;
  if (newText) out.newText = newText.value;
  if (replaceAll) out.replaceAll = replaceAll.value;
  return out;
}

function repairEdits(raw: unknown): unknown {
  const value = typeof raw === "string" ? (parseLenientJson(raw) ?? raw) : raw;
  if (Array.isArray(value)) return value.map(repairEdit);
  if (isRecord(value)) {
    // {"edits": [...]} nested one level too deep, or a single edit object.
    if ("edits" in value && !pick(value, OLD_KEYS)) return repairEdits(value.edits);
    return [repairEdit(value)];
  }
  return value;
}

/**
 * Repairs: the whole argument object as a JSON string; `edits` as a JSON string, a single
 * object, or an array of JSON strings; legacy top-level `oldText/newText` or
 * `old_string/new_string` (and `replace_all`); `file_path`/`filePath` for `path`; JSON strings
 * that carry raw newlines or tabs.
 */
export function repairEditArguments(raw: unknown): unknown {
  const args = typeof raw === "string" ? (parseLenientJson(raw) ?? raw) : raw;
  if (!isRecord(args)) return raw;
  const out: Json = { ...args };
  const path = pick(args, PATH_KEYS);
  for (const key of PATH_KEYS) delete out[key];
  if (path) out.path = path.value;
  if ("edits" in args && args.edits !== undefined && args.edits !== null) {
    out.edits = repairEdits(args.edits);
  }
  const legacyOld = pick(args, OLD_KEYS);
  const legacyNew = pick(args, NEW_KEYS);
  if (legacyOld || legacyNew) {
    const legacy = repairEdit({
      ...(legacyOld ? { oldText: legacyOld.value } : {}),
      ...(legacyNew ? { newText: legacyNew.value } : {}),
      ...(pick(args, REPLACE_ALL_KEYS) ? { replaceAll: pick(args, REPLACE_ALL_KEYS)?.value } : {}),
    });
    for (const key of [...OLD_KEYS, ...NEW_KEYS, ...REPLACE_ALL_KEYS]) delete out[key];
    out.edits = Array.isArray(out.edits) ? [...out.edits, legacy] : [legacy];
  }
  if ("dry_run" in out && !("dryRun" in out)) {
    out.dryRun = out.dry_run;
    delete out.dry_run;
  }
  return out;
}

/**
 * The edit tool's `prepareArguments`: {@link repairEditArguments}, then a refusal of oldText or
 * newText sent as a JSON number or boolean. Lenient coercion would turn `1.50` into "1.5" (the
 * parser already dropped the zero), so the text to match is no longer the text the model meant:
 * the call answers `invalid_arguments` asking for a string instead.
 */
export function prepareEditArguments(raw: unknown): unknown {
  const repaired = repairEditArguments(raw);
  const edits = isRecord(repaired) ? repaired.edits : undefined;
  if (!Array.isArray(edits)) return repaired;
  const problems: ArgumentProblem[] = [];
  edits.forEach((edit, i) => {
    if (!isRecord(edit)) return;
    for (const field of ["oldText", "newText"] as const) {
      const value = edit[field];
      if (typeof value !== "number" && typeof value !== "boolean") continue;
      problems.push({
        field: `edits[${i}].${field}`,
        expected: "string",
        received: `${typeof value} ${String(value)}`,
        fix: `Send it as a JSON string of the text exactly as the file spells it: a ${typeof value} loses its spelling once parsed (1.50 arrives as 1.5), so it is not matched as text.`,
      });
    }
  });
  if (problems.length === 0) return repaired;
  throw new ToolError("invalid_arguments", "oldText and newText must be strings.", { details: { problems } });
}
