import { shellText } from "./shell-text.js";

/**
 * How long the wrapper waits for its output copiers (the relays, then the capper) once the
 * command's processes are gone, each; past it they are ended and the end line says so
 * (`WRAPPER_SCRIPT`'s COPY_WAIT).
 */
export const COPY_WAIT_MS = 2000;

/**
 * Shell text for running a command inside the container (POSIX sh; busybox ash runs it).
 *
 * The wrapper `sh -c WRAPPER sh CTL SHELL COMMAND OUTPUT STREAM CWD GRACE_MS COPY_WAIT HEAD TAIL
 * CAPPER ASSEMBLE FORMAT [UNSET...]` (COPY_WAIT in seconds; the output budget's parts, "" for no
 * limit, and its scripts from `@tackle/operations`):
 * - checks the working directory and the shell, and reports a setup failure as a marker line on
 *   stderr (`\0tackle:err:<class>\n`) instead of an exit code, which belongs to the command;
 * - otherwise writes `\0tackle:ok\n` to stderr (always the first stderr bytes: nothing else runs
 *   yet), creates the private control directory CTL and starts the command under `setsid` as a
 *   background child: that child is not a group leader (the wrapper is), so busybox `setsid`
 *   does not fork and the child's pid is its new process group id, written to CTL/pgid for the
 *   stop script, and reported on stderr as `\0tackle:pid:<token>:<pid>\n` (one short write,
 *   taken out of the stream by the host);
 * - relays the command's output through two FIFOs so a background child that keeps them open
 *   cannot hold the exec stream open: after the command exits, background children get a short
 *   grace (100 ms), then what is left of the group is stopped (TERM, KILL) and so are the
 *   processes that left it (the marker sweep below); the relays, which end once no writer is
 *   left, are waited for (COPY_WAIT more at most, for a writer out of the sweep's reach) and the
 *   wrapper exits with the command's status;
 * - with OUTPUT set, appends both streams to that file itself (`tee -a` when STREAM is 1, plain
 *   redirection when not, so nothing is streamed back);
 * - with HEAD set too, the output goes through the FIFO CTL/c to the capper (CAPPER, see
 *   `OUTPUT_CAPPER_SCRIPT`): the head into OUTPUT as it comes, the tail in pieces in CTL, so the
 *   container's disk holds no more than the budget allows however long the command prints. It
 *   runs in its own session (`setsid`), not in the command's group (the group's stop must not
 *   cut off output it has not yet copied), and ignores SIGTERM. It ends by itself once its
 *   input has no writer left and it copied the rest, and is waited for: once the command's
 *   processes are gone (the group, then the sweep below) and the relays ended, at most COPY_WAIT
 *   more (a slow disk); past that its session is killed. Then ASSEMBLE appends the marker
 *   (FORMAT) and the tail to OUTPUT;
 * - gives the command `TACKLE_EXEC_ID=<token>` in its environment; at the end, processes that
 *   left the group but still carry it (`setsid`, double forks) get TERM, KILL after GRACE_MS,
 *   and a check that they are gone;
 * - ends with `\0tackle:end:<token>:<n>:<status>:<escapes>:<dropped>:<cut>\n` on stderr (token:
 *   the random end of CTL's name; n: bytes appended to OUTPUT; dropped: bytes the budget dropped
 *   between head and tail, empty for none; status: the command's exit
 *   status, the wrapper's own exit code, so the host needs no exec inspect; escapes: what the
 *   marker sweep found, see `WrapperOutput.ended`; cut: 1 when a copier was still open at the
 *   end of its COPY_WAIT and was ended, empty otherwise).
 *   A wrapper that ends without it was killed, i.e. the container went down under it.
 */
export const WRAPPER_SCRIPT = shellText`
_count=; _cap=; _drop=; _cut=; _ctl=$1; _sh=$2; _cmd=$3; _out=$4; _stream=$5; _cwd=$6; _grace=$7
_wait=$8; _head=$9; _tail=\${10}; _capper=\${11}; _assemble=\${12}; _fmt=\${13}; shift 13
_tok=\${_ctl##*-}
for _n in "$@"; do unset "$_n"; done
if ! cd "$_cwd" 2>/dev/null; then
  if [ ! -e "$_cwd" ]; then _c=not_found; elif [ ! -d "$_cwd" ]; then _c=not_directory; else _c=permission_denied; fi
  printf '\0tackle:err:%s\n' "$_c" >&2; exit 0
fi
command -v "$_sh" >/dev/null 2>&1 || { printf '\0tackle:err:not_supported\n' >&2; exit 0; }
mkdir -m 700 "$_ctl" 2>/dev/null || { printf '\0tackle:err:permission_denied\n' >&2; exit 0; }
printf '\0tackle:ok\n' >&2
run() {
  # Only the command's side carries the marker: the wrapper, its relays and its grep do not.
  export TACKLE_EXEC_ID="$_tok"
  if [ "$_sh" = pwsh ]; then exec setsid pwsh -NoProfile -NonInteractive -Command "$_cmd"; fi
  exec setsid "$_sh" -c "$_cmd"
}
# After the command: members of its group left behind (background children) do not outlive it.
# While the host stops the group (CTL/stop) the stop script ends them, with the grace before
# KILL, and reports the signals it sent: wait (bounded) until it is done (CTL/stopped) instead.
reap() {
  if [ -e "$_ctl/stop" ]; then
    _i=0; while [ ! -e "$_ctl/stopped" ] && [ "$_i" -lt $((_grace / 50 + 60)) ]; do sleep 0.05; _i=$((_i + 1)); done
    return
  fi
  kill -TERM "-$_pid" 2>/dev/null && { sleep 0.05; kill -KILL "-$_pid" 2>/dev/null; }
}
# Processes that left the group (setsid, double forks) still carry the marker in their
# environment: one grep over every /proc/PID/environ (-z: NUL-separated entries, exact match).
escaped() { grep -lzxF "TACKLE_EXEC_ID=$_tok" /proc/[0-9]*/environ 2>/dev/null; }
signal_escaped() { for _f in $1; do _p=\${_f#/proc/}; kill "-$2" "\${_p%/environ}" 2>/dev/null; done; }
# _esc: - (no /proc or grep: not checked), 0 (none found), 1 (ended by TERM), 2 (KILL needed, gone), 3 (some survive).
sweep() {
  { [ -r /proc/self/environ ] && command -v grep >/dev/null 2>&1; } || { _esc=-; return; }
  # A process in the middle of execve reads as an empty environment for a moment: when the
  # first look finds nothing, look once more (the exec has finished by then).
  _e=$(escaped); [ -n "$_e" ] || _e=$(escaped); _esc=0
  [ -n "$_e" ] || return
  signal_escaped "$_e" TERM; _esc=1; _i=0
  while [ "$_i" -lt $((_grace / 50 + 1)) ]; do _e=$(escaped); [ -n "$_e" ] || return; sleep 0.05; _i=$((_i + 1)); done
  signal_escaped "$_e" KILL; _esc=2; _i=0
  while [ "$_i" -lt 40 ]; do _e=$(escaped); [ -n "$_e" ] || return; sleep 0.05; _i=$((_i + 1)); done
  _esc=3
}
# The capper (see above): started first, it opens CTL/c for reading and waits for the writers.
# Not a group leader (the wrapper is), so setsid does not fork: its pid is its session's group id.
cap() {
  mkfifo "$_ctl/c"
  ( trap '' TERM; exec setsid sh -c "$_capper" capper "$_out" "$_head" "$_tail" "$_ctl/tail" ) < "$_ctl/c" &
  _cap=$!
}
[ -n "$_out" ] && _before=$(stat -c %s "$_out" 2>/dev/null || echo 0)
if [ -n "$_out" ] && [ "$_stream" != 1 ]; then
  if [ -n "$_head" ]; then cap; run > "$_ctl/c" 2>&1 </dev/null &
  else run >>"$_out" 2>&1 </dev/null &
  fi
  _pid=$!; echo "$_pid" > "$_ctl/pgid"; printf '\0tackle:pid:%s:%s\n' "$_tok" "$_pid" >&2
  wait "$_pid"; _st=$?
  reap
else
  mkfifo "$_ctl/o" "$_ctl/e"
  if [ -n "$_out" ] && [ -n "$_head" ]; then
    cap
    tee "$_ctl/c" < "$_ctl/o" & _r1=$!
    tee "$_ctl/c" < "$_ctl/e" >&2 & _r2=$!
  elif [ -n "$_out" ]; then
    tee -a "$_out" < "$_ctl/o" & _r1=$!
    tee -a "$_out" < "$_ctl/e" >&2 & _r2=$!
  else
    cat < "$_ctl/o" & _r1=$!
    cat < "$_ctl/e" >&2 & _r2=$!
  fi
  run > "$_ctl/o" 2> "$_ctl/e" </dev/null &
  _pid=$!; echo "$_pid" > "$_ctl/pgid"; printf '\0tackle:pid:%s:%s\n' "$_tok" "$_pid" >&2
  wait "$_pid"; _st=$?
  # The relays end once no writer of the FIFOs is left, and may still be copying (a loaded host,
  # a slow file): they are waited for, never cut off while the command's processes may write.
  # Background children get a short grace (100 ms) to print, then the group is ended and so are
  # the processes that left it (the sweep; its result is kept in CTL/esc); the relays then get
  # COPY_WAIT more, for a writer out of the sweep's reach (one that cleared its environment).
  ( sleep 0.1; : >"$_ctl/sweeping"; reap; sweep; echo "$_esc" >"$_ctl/esc"; sleep "$_wait"; kill "$_r1" "$_r2" ) >/dev/null 2>&1 </dev/null & _g=$!
  # 2>/dev/null: ash says "Terminated" for relays the bound ended, on the stream the host reads.
  # Ended by that TERM (128 + 15), a relay did not copy everything: the end line says so.
  wait "$_r1" 2>/dev/null; _s1=$?; wait "$_r2" 2>/dev/null; _s2=$?
  [ "$_s1" != 143 ] && [ "$_s2" != 143 ] || _cut=1
  # A sweep under way (the relays may have ended because of it) is let finish: its result counts.
  while [ -e "$_ctl/sweeping" ] && [ ! -s "$_ctl/esc" ] && kill -0 "$_g" 2>/dev/null; do sleep 0.02; done
  kill "$_g" 2>/dev/null
  reap
fi
# Swept already while the relays were waited for (unless they were done first): sweep only then
# (a process found now would have started after that sweep). Before the capper's wait: its
# writers, the command's processes (without relays), must all be gone first.
if [ -s "$_ctl/esc" ]; then read -r _esc <"$_ctl/esc"; else sweep; fi
if [ -n "$_cap" ]; then
  # Its writers are gone: it ends once it copied what is left (a slow disk may take a while).
  # COPY_WAIT at most, then its session (with the dd it runs) is killed: it ignores SIGTERM.
  # (Its status says whether the bound ended it: 128 + 9; it exits 0 by itself.)
  ( sleep "$_wait"; kill -KILL "-$_cap" ) >/dev/null 2>&1 </dev/null & _g=$!
  wait "$_cap" 2>/dev/null; [ $? != 137 ] || _cut=1
  kill "$_g" 2>/dev/null
  _drop=$(sh -c "$_assemble" assemble "$_out" "$_tail" "$_ctl/tail" "$_fmt"); _drop=\${_drop%% *}
  [ "$_drop" != - ] && [ "$_drop" != 0 ] || _drop=
fi
[ -n "$_out" ] && _count=$(( $(stat -c %s "$_out" 2>/dev/null || echo 0) - _before ))
rm -rf "$_ctl"
printf '\0tackle:end:%s:%s:%s:%s:%s:%s\n' "$_tok" "$_count" "$_st" "$_esc" "$_drop" "$_cut" >&2
exit "$_st"
`;

/**
 * Stops a command's process group: `sh -c STOP sh CTL GRACE_MS`. Waits (briefly) for the group
 * id, marks the stop (CTL/stop: the wrapper's own reap then leaves the group to it), sends TERM
 * to the whole group, polls until the group is gone or the grace ends, then sends KILL and polls
 * again (reading /proc, as busybox has no pgrep), and marks the stop done (CTL/stopped). Prints
 * `<pgid> <term 0|1> <kill 0|1> <gone 0|1>`; prints `- 0 0 1` when the command already finished
 * (its control directory is gone).
 */
export const STOP_SCRIPT = shellText`
_ctl=$1; _grace=$2; _i=0
while [ ! -s "$_ctl/pgid" ]; do
  [ -d "$_ctl" ] || { echo "- 0 0 1"; exit 0; }
  [ "$_i" -ge 100 ] && { echo "- 0 0 0"; exit 0; }
  sleep 0.01; _i=$((_i + 1))
done
read _pg < "$_ctl/pgid"
# Gone means no process of the group except zombies (a pid 1 that does not reap leaves them).
gone() {
  for _s in /proc/[0-9]*/stat; do
    read -r _l < "$_s" 2>/dev/null || continue
    _r=\${_l##*) }; set -- $_r
    [ "$3" = "$_pg" ] && [ "$1" != Z ] && return 1
  done
  return 0
}
settle() { _n=$1; while [ "$_n" -gt 0 ]; do gone && return 0; sleep 0.02; _n=$((_n - 1)); done; gone; }
touch "$_ctl/stop" 2>/dev/null
kill -TERM "-$_pg" 2>/dev/null
if settle $((_grace / 20 + 1)); then _r="$_pg 1 0 1"
else
  kill -KILL "-$_pg" 2>/dev/null
  if settle 100; then _r="$_pg 1 1 1"; else _r="$_pg 1 1 0"; fi
fi
touch "$_ctl/stopped" 2>/dev/null
echo "$_r"
`;
