/**
 * Helpers for an adapter's own output tests beyond the suite (the output budget, the copiers a
 * wrapper runs): what a capped output file must hold, and shell functions that hold the copiers
 * back the way a loaded host or a slow disk would. Shared by the SSH and Docker adapters' tests.
 */
import { outputCutMarker, outputHeadBytes, outputTailBytes } from "../output-cut.js";

/** `seq 1 count` as the command prints it. */
export const numbers = (count: number): string =>
  Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");

/** What the output file holds for `output` under `limit`: head, marker and tail past it, else all. */
export function keptUnder(output: string, limit: number): string {
  if (output.length <= limit) return output;
  const head = outputHeadBytes(limit);
  const tail = outputTailBytes(limit);
  return (
    output.slice(0, head) +
    outputCutMarker(limit, output.length - head - tail) +
    output.slice(output.length - tail)
  );
}

/**
 * POSIX sh functions (busybox ash runs them) for a command that holds the output copiers (tees,
 * relays, the capper) back, the way a loaded host or a slow disk would, until the end of the call:
 * - `freeze N A B` waits until N processes have both `A` and `B` among their arguments (whole
 *   arguments: `freeze 1 capper "$OUT"` finds the capper of output file OUT, `freeze 2 tee "$OUT"`
 *   its tees), stops them (SIGSTOP) and prints their pids;
 * - `release_on_term PID...` starts a process that leaves the command's group (`setsid`, or the
 *   program named in `$SETSID`) but keeps its marker, so only the sweep for such processes
 *   reaches it (after the group's end), and continues PID... (SIGCONT) on that SIGTERM; it
 *   returns once that process is set up, so no early end of the group can catch it.
 */
export const COPIER_CONTROL = `
freeze() (
  want=$1; a=$2; b=$3; cd /proc || exit 1
  while :; do
    found=
    for p in [0-9]*; do
      grep -qzxF -- "$a" "$p/cmdline" 2>/dev/null && grep -qzxF -- "$b" "$p/cmdline" 2>/dev/null || continue
      # Not while setsid, about to run the copier, has its arguments: it may not have left the group yet.
      read -r c <"$p/comm" 2>/dev/null && [ "$c" != setsid ] || continue
      kill -STOP "$p" 2>/dev/null && found="$found $p"
    done
    set -- $found
    [ $# -lt "$want" ] || break
    sleep 0.01
  done
  echo "$@"
)
release_on_term() {
  # Returns once the process is out of the group with its trap set (it then closes the pipe).
  ready=$("\${SETSID:-setsid}" sh -c 'trap "kill -CONT $*; exit 0" TERM; sleep 600 >/dev/null 2>&1 & echo ready; exec >/dev/null 2>&1; wait' release "$@" </dev/null &)
}
`;
