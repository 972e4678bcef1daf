// The shell tools' side of the OS sandbox: which paths a call may write, and what a failed
// sandboxed command is told about what was blocked and which option would allow it.
import type { ExtensionContext } from "@tackle/extensions";
import type { SandboxBlock, SandboxOptions, SandboxReport } from "@tackle/operations";

/**
 * The sandbox of one call: the tool's option with the workspace roots made writable (the
 * directory of output artifacts excluded: commands must not rewrite other calls' output).
 * `false` and `undefined` pass through (the environment's default applies to `undefined`).
 */
export function sandboxForCall(
  ctx: Pick<ExtensionContext, "workspace">,
  option: SandboxOptions | false | undefined,
  artifactDir: string | undefined,
): SandboxOptions | false | undefined {
  if (option === undefined || option === false) return option;
  const roots = ctx.workspace.roots.filter((root) => root !== artifactDir);
  return { ...option, writable: [...new Set([...roots, ...(option.writable ?? [])])] };
}

/** Error messages that show the sandbox at work, by the kind of block they stand for. */
const OUTPUT_BLOCKS: readonly { kind: SandboxBlock["kind"]; target: string; pattern: RegExp }[] = [
  { kind: "write", target: "Read-only file system", pattern: /Read-only file system|\bEROFS\b/ },
  {
    kind: "hidden",
    target: "Permission denied",
    pattern: /Permission denied|Operation not permitted|\bEACCES\b|\bEPERM\b/,
  },
  {
    kind: "offline",
    target: "no network",
    pattern:
      /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|\bENOTFOUND\b|\bEAI_AGAIN\b|\bENETUNREACH\b|Connection refused|\bECONNREFUSED\b/,
  },
];

/**
 * The report of a sandboxed run that did not complete, with the blocks its raw output shows
 * added to the adapter's own (see {@link SandboxBlock}). `rawOutput` is the output as the command
 * wrote it, before redaction and truncation: what the model is shown may have lost the message
 * (a secret-looking value cut by redaction, a line truncated away), the typed blocks do not.
 * Only the fixed names of the kinds are kept, never the output's text.
 */
export function withOutputBlocks(report: SandboxReport, rawOutput: string): SandboxReport {
  const blocked = [...(report.blocked ?? [])];
  for (const { kind, target, pattern } of OUTPUT_BLOCKS) {
    if (pattern.test(rawOutput) && !blocked.some((b) => b.kind === kind)) blocked.push({ kind, target });
  }
  return blocked.length > 0 ? { ...report, blocked } : report;
}

/**
 * Lines for the model when a sandboxed command failed: what the sandbox blocked (the proxy's
 * refusals exactly; writes, hidden paths and the missing network as the command's messages
 * showed them) and the option the user can set. From the report's typed blocks only, never
 * from the output text the model sees. Empty when the run was not sandboxed or nothing was blocked.
 */
export function sandboxFailureHints(report: SandboxReport | undefined): string[] {
  if (!report) return [];
  const hints: string[] = [];
  const blocked = report.blocked ?? [];
  const has = (kind: SandboxBlock["kind"]) => blocked.some((b) => b.kind === kind);
  const refused = blocked.filter((b) => b.kind === "network").map((b) => b.target);
  if (refused.length > 0) {
    hints.push(
      `The sandbox refused network access to ${refused.join(", ")} (not in its allow list). Only the user can allow a host: sandbox option network: { allow: [...] }, or tackle --sandbox-allow HOST.`,
    );
  }
  if (has("write")) {
    hints.push(
      `The sandbox lets commands write only in ${report.writable.join(", ")}; everything else is read-only. Write inside the workspace, or ask the user to add the path (sandbox option writable, or tackle --sandbox-write PATH).`,
    );
  }
  if (has("hidden")) {
    hints.push(
      "The sandbox hides secret locations (~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, other users' homes, /run) and refuses ptrace, mount and similar system calls. If the command needs one of them, ask the user to run it without the sandbox (tackle --no-sandbox) or to change the sandbox's deny list.",
    );
  }
  if (report.network === "off" && has("offline")) {
    hints.push(
      'The sandbox has no network (network: off); nothing outside it is reachable, not even 127.0.0.1 of this machine. The user can allow hosts (sandbox option network: { allow: [...] }, tackle --sandbox-allow HOST) or the whole network (network: "on", tackle --sandbox-network on).',
    );
  }
  if (report.network === "allow-list" && has("offline")) {
    hints.push(
      `The sandbox reaches the network only through its HTTP proxy (HTTP_PROXY / HTTPS_PROXY are set), and only to ${(report.allow ?? []).join(", ")}. Use a client that honours the proxy variables; the user can allow more hosts (sandbox option network: { allow: [...] }, tackle --sandbox-allow HOST).`,
    );
  }
  return hints;
}
