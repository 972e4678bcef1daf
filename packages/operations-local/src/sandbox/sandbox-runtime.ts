import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { arch } from "node:os";
import { delimiter, join } from "node:path";
import { OperationError } from "@tackle/operations";
import { seccompProgram } from "@tackle/operations/adapter";

/**
 * What every sandboxed call of this process shares: the tools found and the seccomp program,
 * built once. Nothing is written to disk: the program reaches bwrap through a pipe, and hidden
 * paths are made inside the sandbox (see `bwrap-args.ts`), so no call leaves a file behind.
 */
export interface SandboxRuntime {
  /** bubblewrap's absolute path. */
  bwrap: string;
  /** `setsid` inside the sandbox, so the shell leads its own session and group (pid = pgid). */
  setsid: string;
  /** The seccomp program (`struct sock_filter` array) bwrap reads from a pipe for each call. */
  seccomp: Uint8Array;
}

/**
 * Why the sandbox cannot run, and the next step, in the order the fallback ladder is checked.
 * Each becomes the message of a `not_supported` error; none is ever answered by running the
 * command without the sandbox.
 */
export const SANDBOX_UNAVAILABLE = {
  platform: (platform: string) =>
    `the sandbox needs Linux with bubblewrap; this is ${platform} (macOS Seatbelt and Windows are not implemented yet). Run without the sandbox (--no-sandbox, sandbox: false) only if you accept that.`,
  architecture: (cpu: string) =>
    `the sandbox's seccomp filter has no system call table for ${cpu} (x64 and arm64 have one).`,
  bwrap: () =>
    "bubblewrap (bwrap) is not installed. Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), then retry.",
  setsid: () => "setsid (util-linux) is not installed; the sandbox needs it to start the shell.",
  userns: (detail: string) =>
    `bubblewrap cannot create the sandbox's namespaces here (${detail}). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap), or run inside a container with them.`,
} as const;

const runtimes = new Map<string, Promise<SandboxRuntime>>();

/**
 * The runtime for `path` (the PATH bwrap and setsid are looked up in), checked once per process:
 * the platform, the tools, and one real sandbox start. Rejects with `not_supported` and the
 * reason; a failed check is retried on the next call (the user may have installed bwrap since).
 */
export function sandboxRuntime(path: string | undefined): Promise<SandboxRuntime> {
  const key = path ?? "";
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = prepareRuntime(path);
    runtimes.set(key, runtime);
    runtime.catch(() => runtimes.delete(key));
  }
  return runtime;
}

async function prepareRuntime(path: string | undefined): Promise<SandboxRuntime> {
  const unavailable = (message: string, cause?: unknown) =>
    new OperationError("not_supported", `exec: sandbox unavailable: ${message}`, {
      operation: "exec",
      ...(cause ? { cause } : {}),
    });
  if (process.platform !== "linux") throw unavailable(SANDBOX_UNAVAILABLE.platform(process.platform));
  const program = seccompProgram();
  if (!program) throw unavailable(SANDBOX_UNAVAILABLE.architecture(arch()));
  const bwrap = await findExecutable("bwrap", path);
  if (!bwrap) throw unavailable(SANDBOX_UNAVAILABLE.bwrap());
  const setsid = await findExecutable("setsid", path);
  if (!setsid) throw unavailable(SANDBOX_UNAVAILABLE.setsid());
  const probe = await run(bwrap, [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--proc",
    "/proc",
    "--",
    setsid,
    "true",
  ]);
  if (probe.code !== 0) {
    const detail = probe.stderr.trim().split("\n").at(-1) || `exit code ${probe.code}`;
    throw unavailable(SANDBOX_UNAVAILABLE.userns(detail));
  }
  return { bwrap, setsid, seccomp: program };
}

/** `name` on `path` (the command's PATH; `/usr/bin:/bin` when it has none). */
async function findExecutable(name: string, path: string | undefined): Promise<string | undefined> {
  const dirs = (path ?? "/usr/bin:/bin").split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      await access(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function run(file: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stderr: String(stderr) });
    });
  });
}
