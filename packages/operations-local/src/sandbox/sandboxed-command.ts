import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { OperationError, type SandboxOptions, type SandboxReport } from "@tackle/operations";
import {
  bwrapArguments,
  resolveSandboxProfile,
  SANDBOX_TEMP_DIRS,
  visibleInSandbox,
} from "@tackle/operations/adapter";
import { localFileFacts } from "./file-facts.js";
import type { ProxySession } from "./network-proxy.js";
import { sandboxRuntime } from "./sandbox-runtime.js";

/**
 * Pid and process group of the command's shell inside the sandbox: bwrap's init is 1, the first
 * process it starts is 2, and `setsid` makes that process lead its own session and group.
 */
export const SANDBOX_SHELL_PID = 2;

/** A command ready to spawn under bubblewrap. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /** Environment additions for the sandbox (temp dir, proxy variables). */
  env: Record<string, string>;
  /** The seccomp program: written into a pipe that is the child's descriptor 3 (`SECCOMP_FD`). */
  seccomp: Uint8Array;
  /** How many descriptors from `FIRST_HIDDEN_FILE_FD` up the child needs, each on `/dev/null`. */
  hiddenFileFds: number;
  /** How the call is sandboxed (`hostPid` is added once spawned). */
  report: SandboxReport;
  /** The allow-list proxy of this call, when the network is an allow list. */
  proxy: ProxySession | undefined;
}

/**
 * Wraps `shellFile shellArgs` in a sandbox with `options`. Rejects with `not_supported` when the
 * sandbox cannot run here (see `SANDBOX_UNAVAILABLE`), and with `permission_denied` when `cwd`
 * would be hidden inside it.
 */
export async function sandboxCommand(
  options: SandboxOptions,
  call: { shellFile: string; shellArgs: string[]; cwd: string; env: NodeJS.ProcessEnv },
  startProxy: (allow: readonly string[]) => Promise<ProxySession>,
): Promise<SandboxedCommand> {
  const runtime = await sandboxRuntime(call.env.PATH);
  const profile = await resolveSandboxProfile(options, call.env.HOME, localFileFacts);
  if (!visibleInSandbox(profile, call.cwd)) {
    throw new OperationError(
      "permission_denied",
      `exec: cwd ${call.cwd} is hidden inside the sandbox (it lies in a directory the sandbox empties). Add it to the sandbox's writable or readable paths, or run from the workspace.`,
      { operation: "exec", path: call.cwd },
    );
  }
  const network = profile.network;
  const allow = typeof network === "object" ? [...network.allow] : undefined;
  // The relay runs on the host's Node: show its directory when the profile hides it (a Node
  // installed under another user's home, say).
  const node = allow ? await realpath(process.execPath).catch(() => process.execPath) : undefined;
  if (node && !visibleInSandbox(profile, node)) profile.binds.push({ path: dirname(node), writable: false });
  const proxy = allow ? await startProxy(allow) : undefined;
  const { args, hiddenFileFds } = bwrapArguments(profile, { cwd: call.cwd, seccomp: true });
  const env: Record<string, string> = { TMPDIR: "/tmp" };
  if (proxy) {
    // The proxy's socket is shown at a fixed path; the relay inside turns TCP into it.
    args.splice(args.indexOf("--chdir"), 0, "--ro-bind", proxy.socketPath, proxy.sandboxSocketPath);
    Object.assign(env, proxy.env);
  }
  const inner = proxy
    ? proxy.wrap(runtime.setsid, [call.shellFile, ...call.shellArgs])
    : [runtime.setsid, call.shellFile, ...call.shellArgs];
  return {
    file: runtime.bwrap,
    args: [...args, ...inner],
    env,
    seccomp: runtime.seccomp,
    hiddenFileFds,
    proxy,
    report: {
      mechanism: "bubblewrap",
      network: allow ? "allow-list" : network === "on" ? "on" : "off",
      ...(allow ? { allow } : {}),
      writable: [
        ...profile.binds.filter((bind) => bind.writable).map((bind) => bind.path),
        ...SANDBOX_TEMP_DIRS,
      ],
      seccomp: true,
    },
  };
}
