import stripAnsi from "strip-ansi";

/**
 * C0 controls except tab and newline, DEL, C1 controls, and the Unicode bidi overrides and
 * isolates (text that renders differently from what it says is a known prompt-injection trick).
 * `strip-ansi` has already removed whole escape sequences; this removes the stray bytes left.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes ANSI escape sequences and control characters (tab and newline stay). */
export function stripControl(text: string): string {
  return stripAnsi(text).replace(CONTROL, "");
}
