// The shell tools' side of the OS sandbox: which paths a call may write, and what a failed
// sandboxed command is told about what was blocked and which option would allow it.
import type { ExtensionContext } from "@tackle/extensions";
import type { SandboxOptions, SandboxReport } from "@tackle/operations";

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

/** Output that says a write hit the read-only part of the sandbox. */
const READ_ONLY = /Read-only file system|\bEROFS\b/;
/** Output that says a path or a system call was refused. */
const REFUSED = /Permission denied|Operation not permitted|\bEACCES\b|\bEPERM\b/;
/** Output that says the network was not there. */
const NO_NETWORK =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|\bENOTFOUND\b|\bEAI_AGAIN\b|\bENETUNREACH\b|Connection refused|\bECONNREFUSED\b/;

/**
 * Lines for the model when a sandboxed command failed: what the sandbox blocked (the proxy's
 * refusals exactly; writes, hidden paths and the missing network as the output suggests them)
 * and the option the user can set. Empty when the run was not sandboxed or nothing fits.
 */
export function sandboxFailureHints(report: SandboxReport | undefined, output: string): string[] {
  if (!report) return [];
  const hints: string[] = [];
  const refused = (report.blocked ?? []).filter((b) => b.kind === "network").map((b) => b.target);
  if (refused.length > 0) {
    hints.push(
      `The sandbox refused network access to ${refused.join(", ")} (not in its allow list). Only the user can allow a host: sandbox option network: { allow: [...] }, or tackle --sandbox-allow HOST.`,
    );
  }
  if (READ_ONLY.test(output)) {
    hints.push(
      `The sandbox lets commands write only in ${report.writable.join(", ")}; everything else is read-only. Write inside the workspace, or ask the user to add the path (sandbox option writable, or tackle --sandbox-write PATH).`,
    );
  }
  if (REFUSED.test(output)) {
    hints.push(
      "The sandbox hides secret locations (~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, other users' homes, /run) and refuses ptrace, mount and similar system calls. If the command needs one of them, ask the user to run it without the sandbox (tackle --no-sandbox) or to change the sandbox's deny list.",
    );
  }
  if (report.network === "off" && NO_NETWORK.test(output)) {
    hints.push(
      'The sandbox has no network (network: off); nothing outside it is reachable, not even 127.0.0.1 of this machine. The user can allow hosts (sandbox option network: { allow: [...] }, tackle --sandbox-allow HOST) or the whole network (network: "on", tackle --sandbox-network on).',
    );
  }
  if (report.network === "allow-list" && NO_NETWORK.test(output)) {
    hints.push(
      `The sandbox reaches the network only through its HTTP proxy (HTTP_PROXY / HTTPS_PROXY are set), and only to ${(report.allow ?? []).join(", ")}. Use a client that honours the proxy variables; the user can allow more hosts (sandbox option network: { allow: [...] }, tackle --sandbox-allow HOST).`,
    );
  }
  return hints;
}
