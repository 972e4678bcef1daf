import type { ExecOptions, ShellKind } from "@tackle/operations";
import { shellQuote } from "./remote-command.js";

/**
 * The wrapper's first stderr line, a control line the adapter strips before any output reaches
 * the caller: `\x01tackle:pg=<pgid>` once the command is about to start, or one of
 * `nocwd` / `notdir` / `denied` / `noshell` when it could not start.
 */
export const CONTROL_PREFIX = "\x01tackle:";

const SHELL_ARGS: Record<ShellKind, (command: string) => string[]> = {
  bash: (command) => ["bash", "-c", command],
  sh: (command) => ["sh", "-c", command],
  pwsh: (command) => ["pwsh", "-NoProfile", "-NonInteractive", "-Command", command],
};

/**
 * The wrapper, a POSIX sh script. Arguments: cwd, output path ("" for none), output mode, shell
 * binary, then the command's argv. sshd starts every session as a session and process-group leader, so the
 * wrapper's pid is the group id and `exec` keeps it for the command; if some server does not,
 * the wrapper re-runs itself under `setsid` (which does not fork for a non-leader).
 */
const WRAPPER = [
  `if ! kill -s 0 -- "-$$" 2>/dev/null; then exec setsid sh -c "$TACKLE_WRAPPER" tackle "$@"; fi`,
  "unset TACKLE_WRAPPER",
  `if ! cd -- "$1" 2>/dev/null; then`,
  `  if [ ! -e "$1" ]; then m=nocwd; elif [ ! -d "$1" ]; then m=notdir; else m=denied; fi`,
  `  printf '\\001tackle:%s\\n' "$m" >&2; exit 126`,
  "fi",
  `out=$2; mode=$3; sh=$4; shift 4`,
  `if ! command -v "$sh" >/dev/null 2>&1; then printf '\\001tackle:noshell\\n' >&2; exit 127; fi`,
  `printf '\\001tackle:pg=%s\\n' "$$" >&2`,
  `case $mode in`,
  `  file) exec "$@" </dev/null >>"$out" 2>&1 ;;`,
  // Both streams back to the host and into the file: tee needs process substitution (bash).
  `  tee) exec bash -c 'exec > >(tee -a "$0") 2> >(tee -a "$0" >&2); exec "$@"' "$out" "$@" </dev/null ;;`,
  `  *) exec "$@" </dev/null ;;`,
  "esac",
].join("\n");

/** The command line the remote login shell runs for one `exec`. */
export function buildExecCommand(command: string, options: ExecOptions): string {
  const env = Object.entries(options.env ?? {});
  const argv = [
    ...(env.length > 0
      ? [
          // env takes its options (-u) before the assignments.
          "env",
          ...env.filter(([, value]) => value === undefined).flatMap(([name]) => ["-u", name]),
          ...env.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${value}`),
        ]
      : []),
    ...SHELL_ARGS[options.shell](command),
  ];
  const mode = options.outputPath === undefined ? "pipe" : options.streamChunks === false ? "file" : "tee";
  const args = [
    options.cwd,
    options.outputPath ?? "",
    mode,
    SHELL_ARGS[options.shell]("")[0] as string,
    ...argv,
  ]
    .map(shellQuote)
    .join(" ");
  return `export TACKLE_WRAPPER=${shellQuote(WRAPPER)}; exec sh -c "$TACKLE_WRAPPER" tackle ${args}`;
}

/** Steps the kill script prints, one per line, in the order they happened. */
export type KillStep = "gone" | "term" | "kill" | "confirmed" | "alive";

/**
 * Ends process group `pgid`: SIGTERM, then SIGKILL after `graceMs` if anything is still alive,
 * then confirms the group is empty. Zombies count as gone (they run nothing; an init that never
 * reaps would otherwise keep them "alive" forever), so liveness reads /proc where it exists.
 */
export function buildKillCommand(pgid: number, graceMs: number): string {
  const ticks = Math.max(1, Math.ceil(graceMs / 50));
  return [
    `pg=${pgid}`,
    "alive() {",
    `  kill -s 0 -- "-$pg" 2>/dev/null || return 1`,
    "  [ -r /proc/self/stat ] || return 0",
    "  for f in /proc/[0-9]*/stat; do",
    `    read -r l 2>/dev/null <"$f" || continue`,
    // Fields after the command name (which may contain spaces): state ppid pgrp ...
    `    set -- \${l##*) }`,
    `    [ "$3" = "$pg" ] && [ "$1" != Z ] && [ "$1" != X ] && return 0`,
    "  done",
    "  return 1",
    "}",
    `if ! alive; then echo gone; exit 0; fi`,
    `kill -s TERM -- "-$pg" 2>/dev/null && echo term`,
    "i=0",
    "while alive; do",
    `  if [ $i -ge ${ticks} ]; then kill -s KILL -- "-$pg" 2>/dev/null && echo kill; break; fi`,
    "  sleep 0.05; i=$((i+1))",
    "done",
    "i=0",
    "while alive && [ $i -lt 40 ]; do sleep 0.05; i=$((i+1)); done",
    "if alive; then echo alive; else echo confirmed; fi",
  ].join("\n");
}
