import { OperationError, type SandboxOptions, type SandboxReport } from "@tackle/operations";
import {
  bwrapArguments,
  FIRST_HIDDEN_FILE_FD,
  resolveSandboxProfile,
  SANDBOX_TEMP_DIRS,
  type SandboxFileFacts,
  seccompProgram,
  visibleInSandbox,
} from "@tackle/operations/adapter";
import type { SFTPWrapper, Stats } from "ssh2";
import type { Session } from "./connection.js";
import { runRemote } from "./remote-command.js";
import { shellQuote } from "./shell-quote.js";

/** What the remote host offers the sandbox, found by one probe per connection. */
interface RemoteSandboxHost {
  bwrap: string;
  setsid: string;
  bash: string;
  /** The login's `HOME`: `~/` of the deny list. */
  home: string | undefined;
  /** The seccomp program for the remote host's architecture. */
  seccomp: Uint8Array;
}

/** A sandboxed command's argv prefix (up to the shell) and its report. */
export interface RemoteSandbox {
  /** `bash -c LAUNCHER ... bwrap ARGS -- setsid`: the shell's argv follows. */
  prefix: string[];
  report: SandboxReport;
}

/** `uname -m` of the remote host to the `process.arch` name the seccomp tables use. */
const ARCHITECTURES: Record<string, string> = {
  x86_64: "x64",
  amd64: "x64",
  aarch64: "arm64",
  arm64: "arm64",
};

/**
 * The probe, a POSIX sh script run once per connection: the system, the tools, the login's home,
 * and one real start of a sandbox (`start=ok`, or bubblewrap's last error line).
 */
const PROBE = [
  `printf 'os=%s\\narch=%s\\nhome=%s\\n' "$(uname -s)" "$(uname -m)" "$HOME"`,
  `for t in bwrap setsid bash; do printf '%s=%s\\n' "$t" "$(command -v "$t" 2>/dev/null)"; done`,
  `b=$(command -v bwrap 2>/dev/null) && s=$(command -v setsid 2>/dev/null) || exit 0`,
  `if e=$("$b" --unshare-user --unshare-pid --unshare-net --disable-userns --cap-drop ALL --ro-bind / / --proc /proc -- "$s" true 2>&1); then echo start=ok; else printf 'start=%s\\n' "$(printf '%s\\n' "$e" | tail -n 1)"; fi`,
].join("\n");

/**
 * The launcher, a bash script (`bash -c LAUNCHER tackle-sandbox PROGRAM COUNT bwrap ARGS...`):
 * puts the seccomp program (printf escapes) on a pipe at descriptor 3 and `/dev/null` on
 * COUNT descriptors from 4 up (the hidden files' contents), then runs bubblewrap in its place.
 * bash because descriptors above 9 may be needed.
 */
const LAUNCHER = [
  `p=$1; n=$2; shift 2`,
  `exec 3< <(printf "$p")`,
  `i=0; while [ "$i" -lt "$n" ]; do eval "exec $((${FIRST_HIDDEN_FILE_FD} + i))</dev/null"; i=$((i + 1)); done`,
  `exec "$@"`,
].join("\n");

const probes = new WeakMap<Session, Promise<RemoteSandboxHost>>();

function unavailable(message: string): OperationError {
  return new OperationError("not_supported", `exec: sandbox unavailable on the remote host: ${message}`, {
    operation: "exec",
  });
}

/**
 * What the remote host of `session` offers the sandbox, probed on the first sandboxed call of the
 * connection and kept for it (a new connection probes again). Rejects with `not_supported` and
 * the reason when bubblewrap cannot run there; the call then runs nothing.
 */
export function remoteSandboxHost(session: Session): Promise<RemoteSandboxHost> {
  let probe = probes.get(session);
  if (!probe) {
    probe = probeHost(session);
    probes.set(session, probe);
  }
  return probe;
}

async function probeHost(session: Session): Promise<RemoteSandboxHost> {
  const result = await runRemote(session, `sh -c ${shellQuote(PROBE)}`);
  const facts = new Map<string, string>();
  for (const line of result.stdout.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) facts.set(line.slice(0, at), line.slice(at + 1));
  }
  const os = facts.get("os") ?? "";
  if (os !== "Linux")
    throw unavailable(
      `it runs ${os || "an unknown system"}; the sandbox needs Linux with bubblewrap there. Run without the sandbox (sandbox: false, tackle --no-sandbox) only if that host is disposable.`,
    );
  const machine = facts.get("arch") ?? "";
  const seccomp = seccompProgram(ARCHITECTURES[machine] ?? machine);
  if (!seccomp) throw unavailable(`the sandbox's seccomp filter has no system call table for ${machine}.`);
  const bwrap = facts.get("bwrap");
  if (!bwrap)
    throw unavailable(
      "bubblewrap (bwrap) is not installed there. Install it on that host (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), then reconnect.",
    );
  const setsid = facts.get("setsid");
  if (!setsid) throw unavailable("setsid (util-linux) is not installed there.");
  const bash = facts.get("bash");
  if (!bash) throw unavailable("bash is not installed there (the sandbox's launcher needs it).");
  const start = facts.get("start");
  if (start !== "ok")
    throw unavailable(
      `bubblewrap cannot create the sandbox's namespaces there (${start || "no answer"}). Allow unprivileged user namespaces on that host (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap).`,
    );
  const home = facts.get("home") || undefined;
  return { bwrap, setsid, bash, home, seccomp };
}

/**
 * The sandbox of one remote command: the profile resolved against the remote file system (over
 * SFTP, the lookups sent together), bubblewrap's arguments, and the launcher that gives bwrap the
 * seccomp program. Rejects with `not_supported` when the host cannot sandbox or the network is an
 * allow list (its proxy runs only with the local adapter), and with `permission_denied` when
 * `cwd` would be hidden inside the sandbox.
 */
export async function remoteSandbox(
  session: Session,
  options: SandboxOptions,
  call: { cwd: string; home: string | undefined },
): Promise<RemoteSandbox> {
  if (typeof options.network === "object")
    throw unavailable(
      'a network allow list needs the sandbox\'s proxy, which only the local adapter runs. Use network "off" or "on" over SSH.',
    );
  const host = await remoteSandboxHost(session);
  const sftp = await session.sftp();
  const profile = await resolveSandboxProfile(options, call.home ?? host.home, sftpFacts(sftp, host.home));
  if (!visibleInSandbox(profile, call.cwd)) {
    throw new OperationError(
      "permission_denied",
      `exec: cwd ${call.cwd} is hidden inside the sandbox (it lies in a directory the sandbox empties). Add it to the sandbox's writable or readable paths, or run from the workspace.`,
      { operation: "exec", path: call.cwd },
    );
  }
  const { args, hiddenFileFds } = bwrapArguments(profile, { cwd: call.cwd, seccomp: true });
  return {
    prefix: [
      host.bash,
      "-c",
      LAUNCHER,
      "tackle-sandbox",
      printfEscapes(host.seccomp),
      String(hiddenFileFds),
      host.bwrap,
      ...args,
      host.setsid,
    ],
    report: {
      mechanism: "bubblewrap",
      network: profile.network === "on" ? "on" : "off",
      writable: [
        ...profile.binds.filter((bind) => bind.writable).map((bind) => bind.path),
        ...SANDBOX_TEMP_DIRS,
      ],
      seccomp: true,
    },
  };
}

/** Every byte as a `\ooo` escape of printf's format (no `%`, so the format is the data). */
function printfEscapes(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += `\\${byte.toString(8).padStart(3, "0")}`;
  return text;
}

/** The profile's lookups on the remote host, over SFTP. */
function sftpFacts(sftp: SFTPWrapper, userHome: string | undefined): SandboxFileFacts {
  const stats = (method: "lstat" | "stat", path: string) =>
    new Promise<Stats | undefined>((resolve) =>
      sftp[method](path, (error, s) => resolve(error ? undefined : s)),
    );
  return {
    lstat: async (path) => {
      const s = await stats("lstat", path);
      return s === undefined ? undefined : s.isSymbolicLink() ? "link" : s.isDirectory() ? "dir" : "file";
    },
    stat: async (path) => {
      const s = await stats("stat", path);
      return s === undefined ? undefined : s.isDirectory() ? "dir" : "file";
    },
    // Some servers answer realpath for a path that does not exist: it must exist to be bound.
    realpath: async (path) => {
      const [exists, real] = await Promise.all([
        stats("stat", path),
        new Promise<string | undefined>((resolve) =>
          sftp.realpath(path, (error, resolved) => resolve(error ? undefined : resolved)),
        ),
      ]);
      return exists ? real : undefined;
    },
    userHome,
  };
}
