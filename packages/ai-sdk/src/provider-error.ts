/**
 * The provider's own message for a failed call, for `errorMessage`. Read from the error's fields
 * (the AI SDK's `APICallError` carries `statusCode`; its `RetryError` carries `lastError` and
 * `errors`), never parsed out of text. A mid-stream error is often the provider's plain error
 * object (`{ type, message }`) rather than an `Error`.
 */
export function describeProviderError(error: unknown): string {
  const retry = retryOf(error);
  if (retry !== undefined)
    return `${describeProviderError(retry.lastError)} (gave up after ${retry.attempts} attempts)`;
  const message = messageOf(error);
  const status = fieldOf(error, "statusCode");
  return typeof status === "number" ? `${message} (HTTP ${status})` : message;
}

function retryOf(error: unknown): { lastError: unknown; attempts: number } | undefined {
  const errors = fieldOf(error, "errors");
  if (!("lastError" in Object(error)) || !Array.isArray(errors)) return undefined;
  return { lastError: fieldOf(error, "lastError"), attempts: errors.length };
}

function messageOf(error: unknown): string {
  if (typeof error === "string") return error || "Unknown provider error.";
  const message = fieldOf(error, "message");
  if (typeof message === "string" && message !== "") return message;
  const nested = fieldOf(error, "error");
  if (nested !== undefined && nested !== error) return messageOf(nested);
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
