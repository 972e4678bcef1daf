import {
  type ExecOptions,
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
  type ShellKind,
} from "@tackle/operations";
import { shellQuote } from "./shell-quote.js";

/**
 * The wrapper's first stderr line, a control line the adapter strips before any output reaches
 * the caller: `\x01tackle:pg=<pgid>` once the command is about to start, or one of
 * `nocwd` / `notdir` / `denied` / `noshell` / `nolimit` when it could not start.
 */
export const CONTROL_PREFIX = "\x01tackle:";

const SHELL_ARGS: Record<ShellKind, (command: string) => string[]> = {
  bash: (command) => ["bash", "-c", command],
  sh: (command) => ["sh", "-c", command],
  pwsh: (command) => ["pwsh", "-NoProfile", "-NonInteractive", "-Command", command],
};

/**
 * The watchdog, a POSIX sh script: `sh -c WATCHDOG tackle-watchdog SSHD PGID MARKER GRACE_MS`,
 * started by the wrapper in a session of its own with the channel's stdin, which the host keeps
 * open and silent while the command runs. sshd closes that stdin when the command's leader exits
 * (the usual end) and when the connection dies (its per-connection process exits). Once it
 * reads end of input it waits until either the command's leader is gone (the usual end: it
 * leaves, and the host ends what the command left) or SSHD, the wrapper's parent, is gone (the
 * connection died: no host will ever stop this command). Then it ends the command's group (only
 * while its leader still carries the command's marker: the number may be someone else's by
 * then) and every process carrying the command's marker or its copy marker (the tees and the
 * capper, also one still waiting to open its FIFO): TERM, then KILL after GRACE_MS.
 */
const WATCHDOG = [
  `sshd=$1; pg=$2; tok=$3; grace=$4`,
  // The shell's own read, not a cat: one process less per command.
  "while read -r l; do :; done",
  // Gone: no such process, or a zombie (its parent has not reaped it yet).
  `gone() { [ -r "/proc/$1/stat" ] || { kill -s 0 "$1" 2>/dev/null && return 1; return 0; }; read -r l <"/proc/$1/stat" 2>/dev/null || return 0; set -- \${l##*) }; [ "$1" = Z ] || [ "$1" = X ]; }`,
  `while ! gone "$sshd"; do gone "$pg" && exit 0; sleep 0.1; done`,
  `marked() { grep -lzxF "$1" /proc/[0-9]*/environ 2>/dev/null | sed -n 's#^/proc/\\([0-9]*\\)/environ$#\\1#p'; }`,
  `own=; grep -qzxF "TACKLE_EXEC_ID=$tok" "/proc/$pg/environ" 2>/dev/null && own=1`,
  `hit() { [ -n "$own" ] && kill -s "$1" -- "-$pg" 2>/dev/null; for p in $(marked "TACKLE_EXEC_ID=$tok") $(marked "TACKLE_COPY_ID=$tok"); do kill -s "$1" "$p" 2>/dev/null; done; }`,
  `hit TERM; sleep "$((grace / 1000)).$((grace % 1000 / 100))"; hit KILL`,
].join("\n");

/**
 * The wrapper, a POSIX sh script. Arguments: cwd, output path ("" for none), output mode, head
 * and tail bytes of the output budget ("" for no limit), the command's marker, shell binary,
 * kill grace in ms, then the command's argv. `TACKLE_CAPPER` holds `OUTPUT_CAPPER_SCRIPT` when there is a limit.
 * sshd starts every session as a session and process-group leader, so the wrapper's pid is the
 * group id and `exec` keeps it for the command; if some server does not, the wrapper re-runs
 * itself under `setsid` (which does not fork for a non-leader).
 *
 * With a limit, the output goes through a FIFO to the capper in the background, which keeps the
 * head in the file and the tail in pieces beside it (see `OUTPUT_CAPPER_SCRIPT`), so the remote
 * host's disk holds no more than the budget allows however long the command prints; the host
 * appends the tail with `OUTPUT_ASSEMBLE_SCRIPT` once the command is over.
 *
 * With `outputPath` and chunks ("tee" mode), two tees copy stdout and stderr into the file (or
 * the capper's FIFO) and back to the host.
 *
 * The tees and the capper ("copiers") run in their own session (`setsid`), outside the command's
 * group, so neither a stop nor the sweep after the command's exit cuts off what they still have
 * to copy; they end once no writer is left, and sshd closes the channel (whose fds they hold) only
 * then, which is how the host knows they are done. They carry `TACKLE_COPY_ID=<marker>` (the
 * command does not), so the host can end them when that wait hits its bound. Without `setsid`
 * they stay in the command's group, ignoring SIGTERM, and the control line says so
 * (`pg=<pgid>:copiers`): the kill script then leaves alone the group members that carry the copy
 * marker (see {@link buildKillCommand}).
 */
const WRAPPER = [
  `if ! kill -s 0 -- "-$$" 2>/dev/null; then exec setsid sh -c "$TACKLE_WRAPPER" tackle "$@"; fi`,
  "unset TACKLE_WRAPPER",
  // The login shell that ran this sourced ~/.bashrc already (bash does under sshd), and its exec
  // lowered SHLVL to 0: a bash command shell would count itself run by sshd again and source it
  // a second time in the same process. At 1 it counts as nested and does not.
  `case \${SHLVL:-0} in 0|*[!0-9]*) export SHLVL=1 ;; esac`,
  `if ! cd -- "$1" 2>/dev/null; then`,
  `  if [ ! -e "$1" ]; then m=nocwd; elif [ ! -d "$1" ]; then m=notdir; else m=denied; fi`,
  `  printf '\\001tackle:%s\\n' "$m" >&2; exit 126`,
  "fi",
  `out=$2; mode=$3; head=$4; tail=$5; tok=$6; sh=$7; grace=$8; shift 8`,
  `if ! command -v "$sh" >/dev/null 2>&1; then printf '\\001tackle:noshell\\n' >&2; exit 127; fi`,
  `lim=; [ -z "$head" ] || lim=1`,
  // The copiers' own session (see above); without setsid they share the command's group.
  `ss=; cg=; command -v setsid >/dev/null 2>&1 && ss=setsid`,
  `if [ -z "$ss" ] && [ "$mode" != pipe ] && { [ "$mode" = tee ] || [ -n "$lim" ]; }; then cg=:copiers; fi`,
  `if [ -n "$lim" ] && [ "$mode" != pipe ]; then`,
  `  p="$out.tackle-$$.fifo"; rm -f "$p"`,
  `  if ! command -v dd >/dev/null 2>&1 || ! mkfifo -m 600 "$p" 2>/dev/null; then printf '\\001tackle:nolimit\\n' >&2; exit 125; fi`,
  // The capper opens the FIFO only once in its own session with the copy marker (after setsid's
  // exec): the command's open for writing waits for that, so no sweep can find the capper in
  // the group unmarked, however late it is scheduled.
  `  ( trap '' TERM; export TACKLE_COPY_ID="$tok"; exec $ss sh -c 'exec <"$0"; rm -f "$0"; exec sh -c "$TACKLE_CAPPER" capper "$@"' "$p" "$out" "$head" "$tail" "$out.tackle-$tok.tail" ) &`,
  "fi",
  "unset TACKLE_CAPPER",
  // The watchdog (see WATCHDOG), in a session of its own so no stop of the group reaches it. An
  // asynchronous list's stdin is /dev/null unless redirected: it gets the channel's as fd 3.
  `if [ -n "$ss" ]; then exec 3<&0; $ss sh -c "$TACKLE_WATCHDOG" tackle-watchdog "$PPID" "$$" "$tok" "$grace" <&3 >/dev/null 2>&1 & exec 3<&-; fi`,
  "unset TACKLE_WATCHDOG",
  `printf '\\001tackle:pg=%s%s\\n' "$$" "$cg" >&2`,
  `case $mode$lim in`,
  `  pipe*) exec "$@" </dev/null ;;`,
  `  file) exec "$@" </dev/null >>"$out" 2>&1 ;;`,
  // Both streams back to the host and into the file: tee needs process substitution (bash).
  // Only the tees get the copy marker, never the command.
  `  tee) exec bash -c 'c=$1; ss=$2; shift 2; trap "" TERM; exec > >(export TACKLE_COPY_ID=$c; exec $ss tee -a "$0") 2> >(export TACKLE_COPY_ID=$c; exec $ss tee -a "$0" >&2); trap - TERM; exec "$@"' "$out" "$tok" "$ss" "$@" </dev/null ;;`,
  `  file*) exec "$@" </dev/null >"$p" 2>&1 ;;`,
  // One open of the FIFO (fd 3) shared by both tees: a second open could come after the capper
  // removed its name and create a plain file there.
  `  tee*) exec bash -c 'c=$1; ss=$2; shift 2; trap "" TERM; exec 3>"$0"; exec > >(export TACKLE_COPY_ID=$c; exec $ss tee /dev/fd/3) 2> >(export TACKLE_COPY_ID=$c; exec $ss tee /dev/fd/3 >&2); exec 3>&-; trap - TERM; exec "$@"' "$p" "$tok" "$ss" "$@" </dev/null ;;`,
  "esac",
].join("\n");

/** Where the capper keeps the output's tail pieces for the command with `marker`. */
export function tailPrefix(outputPath: string, marker: string): string {
  return `${outputPath}.tackle-${marker}.tail`;
}

/**
 * Environment variable every `exec` sets to a random value. The command's descendants inherit
 * it, also those that leave its process group (`setsid`, double forks), so the kill script finds
 * them through `/proc/PID/environ`.
 */
export const EXEC_MARKER_VARIABLE = "TACKLE_EXEC_ID";

/**
 * The command line the remote login shell runs for one `exec`; `marker` is the random value of
 * {@link EXEC_MARKER_VARIABLE} for this command; `sandboxPrefix` runs the shell in the sandbox
 * (see `sandbox.ts`).
 */
export function buildExecCommand(
  command: string,
  options: ExecOptions,
  marker: string,
  killGraceMs: number,
  sandboxPrefix: readonly string[] = [],
): string {
  const env = Object.entries(options.env ?? {}).filter(([name]) => name !== EXEC_MARKER_VARIABLE);
  const argv = [
    // env takes its options (-u) before the assignments; the marker goes last so it wins.
    "env",
    ...env.filter(([, value]) => value === undefined).flatMap(([name]) => ["-u", name]),
    ...env.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${value}`),
    `${EXEC_MARKER_VARIABLE}=${marker}`,
    // A sandboxed command: bubblewrap (through its launcher) in the wrapper's place, the shell
    // inside. Every process of it, bwrap's init included, carries the marker.
    ...sandboxPrefix,
    ...SHELL_ARGS[options.shell](command),
  ];
  const mode = options.outputPath === undefined ? "pipe" : options.streamChunks === false ? "file" : "tee";
  const limit = options.outputLimitBytes;
  const args = [
    options.cwd,
    options.outputPath ?? "",
    mode,
    limit === undefined ? "" : String(outputHeadBytes(limit)),
    limit === undefined ? "" : String(outputTailBytes(limit)),
    marker,
    SHELL_ARGS[options.shell]("")[0] as string,
    String(killGraceMs),
    ...argv,
  ]
    .map(shellQuote)
    .join(" ");
  const capper = limit === undefined ? "" : `export TACKLE_CAPPER=${shellQuote(OUTPUT_CAPPER_SCRIPT)}; `;
  return `${capper}export TACKLE_WATCHDOG=${shellQuote(WATCHDOG)} TACKLE_WRAPPER=${shellQuote(WRAPPER)}; exec sh -c "$TACKLE_WRAPPER" tackle ${args}`;
}

/**
 * The command that finishes a capped output once the command is over: appends the marker and
 * the tail (see `OUTPUT_ASSEMBLE_SCRIPT`) and prints `<dropped, or -> <file size>`.
 */
export function buildAssembleCommand(outputPath: string, limit: number, marker: string): string {
  return [
    "sh",
    "-c",
    OUTPUT_ASSEMBLE_SCRIPT,
    "assemble",
    outputPath,
    String(outputTailBytes(limit)),
    tailPrefix(outputPath, marker),
    outputCutMarkerFormat(limit),
  ]
    .map(shellQuote)
    .join(" ");
}

/**
 * Steps the kill script prints, one per line, in the order they happened: for the group, then
 * for processes that left it but carry the command's marker (`esc-*`; `noproc` when there is no
 * /proc, grep or sed to look with).
 */
export type KillStep =
  | "gone"
  | "term"
  | "kill"
  | "confirmed"
  | "alive"
  | "noproc"
  | "esc-none"
  | "esc-term"
  | "esc-kill"
  | "esc-gone"
  | "esc-alive";

/**
 * Environment variable the output copiers (tees, capper) get, set to the command's marker: the
 * kill script tells them from the command's processes by it when they share its group (a host
 * without `setsid`), and {@link buildCopierKillCommand} finds them by it.
 */
export const COPY_MARKER_VARIABLE = "TACKLE_COPY_ID";

/**
 * Ends process group `pgid`: SIGTERM, then SIGKILL after `graceMs` if anything is still alive,
 * then confirms the group is empty. Zombies count as gone (they run nothing; an init that never
 * reaps would otherwise keep them "alive" forever), so liveness reads /proc where it exists.
 * Then the same for processes outside the group whose environment holds `TACKLE_EXEC_ID=marker`
 * (one `grep -lzxF` over every /proc/PID/environ: entries are NUL-separated, matched whole).
 *
 * `copiersInGroup` (a host without `setsid`): the output copiers are in the group too, ignoring
 * SIGTERM. Members carrying `TACKLE_COPY_ID=marker` then do not count: a group of copiers only
 * is "gone" (nothing of the command's was left, nothing is signalled), and SIGKILL goes to the
 * other members one by one (looked up again on every tick) instead of to the whole group.
 * Without /proc or grep they cannot be told apart and count as the command's.
 */
export function buildKillCommand(
  pgid: number,
  graceMs: number,
  marker: string,
  copiersInGroup = false,
): string {
  const ticks = Math.max(1, Math.ceil(graceMs / 50));
  return [
    ...markerSweep(EXEC_MARKER_VARIABLE, marker, ticks),
    `pg=${pgid}`,
    // members: the live (not zombie) processes of the group, but the copiers (see above).
    ...(copiersInGroup
      ? [
          `c='${COPY_MARKER_VARIABLE}=${marker}'`,
          // Looked at twice: a copier in the middle of execve reads as an empty environment.
          `copier() { grep -qzxF "$c" "/proc/$1/environ" 2>/dev/null || grep -qzxF "$c" "/proc/$1/environ" 2>/dev/null; }`,
          'notcopier() { copier "$1" && return 1; command -v grep >/dev/null 2>&1 || return 0; [ -r "/proc/$1/environ" ]; }',
          `killrest() { for p in $(members); do kill -s KILL "$p" 2>/dev/null; done; }`,
        ]
      : ["notcopier() { return 0; }", `killrest() { kill -s KILL -- "-$pg" 2>/dev/null; }`]),
    "members() {",
    "  for f in /proc/[0-9]*/stat; do",
    `    read -r l 2>/dev/null <"$f" || continue`,
    // Fields after the command name (which may contain spaces): state ppid pgrp ...
    `    set -- \${l##*) }`,
    `    [ "$3" = "$pg" ] && [ "$1" != Z ] && [ "$1" != X ] || continue`,
    `    p=\${f%/stat}; p=\${p#/proc/}`,
    `    notcopier "$p" && echo "$p"`,
    "  done",
    "}",
    "alive() {",
    `  kill -s 0 -- "-$pg" 2>/dev/null || return 1`,
    "  [ -r /proc/self/stat ] || return 0",
    `  [ -n "$(members)" ]`,
    "}",
    "if ! alive; then echo gone; sweep; exit 0; fi",
    `kill -s TERM -- "-$pg" 2>/dev/null && echo term`,
    "i=0",
    "while alive; do",
    `  if [ $i -ge ${ticks} ]; then killrest; echo kill; break; fi`,
    "  sleep 0.05; i=$((i+1))",
    "done",
    "i=0",
    ...(copiersInGroup
      ? ["while alive && [ $i -lt 40 ]; do killrest; sleep 0.05; i=$((i+1)); done"]
      : ["while alive && [ $i -lt 40 ]; do sleep 0.05; i=$((i+1)); done"]),
    "if alive; then echo alive; else echo confirmed; fi",
    "sweep",
  ].join("\n");
}

/**
 * Ends every process whose environment holds `TACKLE_EXEC_ID=marker` (SIGTERM, SIGKILL after
 * `graceMs`), without touching a process group by number: for a command whose connection dropped,
 * found again on a later connection, when its group id may already belong to someone else. Every
 * process of the command inherited the marker, also those that left its group; one that cleared
 * its environment (`env -i`) is out of reach. Prints the `esc-*` steps of {@link KillStep}.
 */
export function buildMarkerKillCommand(marker: string, graceMs: number): string {
  return [...markerSweep(EXEC_MARKER_VARIABLE, marker, Math.max(1, Math.ceil(graceMs / 50))), "sweep"].join(
    "\n",
  );
}

/**
 * Ends the output copiers of the command with `marker` (the processes whose environment holds
 * `TACKLE_COPY_ID=marker`): for copiers still open when the wait for them hit its bound, so they
 * neither write to the output file after the call nor race the assembly of a capped output.
 * They ignore SIGTERM, so SIGKILL follows after one tick. Prints the `esc-*` steps.
 */
export function buildCopierKillCommand(marker: string): string {
  return [...markerSweep(COPY_MARKER_VARIABLE, marker, 1), "sweep"].join("\n");
}

/**
 * The shell function `sweep`: TERM, then KILL after `ticks` x 50 ms, to processes whose
 * environment holds `variable=marker`.
 */
function markerSweep(variable: string, marker: string, ticks: number): string[] {
  if (!/^[0-9a-f]+$/.test(marker)) throw new Error("marker must be hex");
  return [
    `m='${variable}=${marker}'`,
    "escaped() { grep -lzxF \"$m\" /proc/[0-9]*/environ 2>/dev/null | sed -n 's#^/proc/\\([0-9]*\\)/environ$#\\1#p'; }",
    "sweep() {",
    // Without /proc, grep or sed nothing can be checked: say so rather than "none found".
    "  { [ -r /proc/self/environ ] && command -v grep >/dev/null 2>&1 && command -v sed >/dev/null 2>&1; } || { echo noproc; return; }",
    // A process in the middle of execve reads as an empty environment for a moment: when the
    // first look finds nothing, look once more (the exec has finished by then).
    '  e=$(escaped); [ -n "$e" ] || e=$(escaped)',
    '  [ -n "$e" ] || { echo esc-none; return; }',
    "  kill -s TERM $e 2>/dev/null; echo esc-term",
    "  i=0",
    `  while [ -n "$e" ] && [ $i -lt ${ticks} ]; do sleep 0.05; e=$(escaped); i=$((i+1)); done`,
    '  [ -n "$e" ] && { kill -s KILL $e 2>/dev/null; echo esc-kill; }',
    "  i=0",
    '  while [ -n "$e" ] && [ $i -lt 40 ]; do sleep 0.05; e=$(escaped); i=$((i+1)); done',
    '  if [ -n "$e" ]; then echo esc-alive; else echo esc-gone; fi',
    "}",
  ];
}
