import { shellText } from "./shell-text.js";

/**
 * How long the wrapper waits for its output copiers (relays, then the capper) once the
 * command's processes are gone, each; past it they are ended and the end line says so.
 */
export const COPY_WAIT_MS = 2000;

/**
 * How long the exec stream may stay open, past the kill grace, after the stop script confirmed
 * the group gone: the wrapper's 100 ms, its sweep (the grace, then 2 s at most), its waits for
 * the relays and the capper (`COPY_WAIT_MS` each) and the assembly, with room to spare. A stream
 * open longer than that (a wedged engine or node) is closed by the host.
 */
export const STREAM_DRAIN_MS = 2000 + 2 * COPY_WAIT_MS + 2000;

/**
 * The watchdog (`sh -c WATCHDOG watchdog CTL TOKEN GRACE_MS`, stdin: the exec stream's stdin,
 * in a session of its own). It reads stdin until it ends: the transport (the Kubernetes API
 * server) closes a process's stdin when the exec connection goes away, and the adapter never sends on it or closes it
 * while a command runs. Unless the wrapper finished first (CTL/done), it then ends the
 * command's group (TERM, KILL after the grace) and every process that carries the command's
 * marker (`TACKLE_EXEC_ID`): a dropped connection leaves nothing of the command running. No
 * single quote in it: the wrapper holds it in a quoted string.
 */
const WATCHDOG = shellText`
cat >/dev/null 2>&1
[ -e "$1/done" ] && exit 0
: > "$1/dropped"
read -r _pg < "$1/pgid" 2>/dev/null
marked() { grep -lzxF "TACKLE_EXEC_ID=$2" /proc/[0-9]*/environ 2>/dev/null; }
hit() { [ -n "$_pg" ] && kill "-$1" "-$_pg" 2>/dev/null; for _f in $(marked "$@"); do _p=\${_f#/proc/}; kill "-$1" "\${_p%/environ}" 2>/dev/null; done; }
hit TERM "$2"; sleep "$(($3 / 1000)).$(($3 % 1000 / 100))"; hit KILL "$2"
`;

/**
 * The command wrapper, POSIX sh (busybox ash runs it):
 * `sh -c WRAPPER sh CTL SHELL COMMAND OUTPUT STREAM CWD GRACE_MS COPY_WAIT HEAD TAIL CAPPER
 * ASSEMBLE FORMAT WATCHDOG COMMAND_BYTES [ENV...]` (COPY_WAIT in seconds; HEAD, TAIL, CAPPER,
 * ASSEMBLE and FORMAT are the output budget's (`@tackle/operations`), "" for none; WATCHDOG:
 * `WATCHDOG_SCRIPT` when the exec's stdin stays open for it, "" for none; COMMAND_BYTES: "" when
 * COMMAND is the command, else the command is that many bytes on stdin; ENV: `env` arguments for
 * the command only, `-u NAME` and `NAME=VALUE`: a transport without an environment option, such
 * as pod exec, passes every variable so, one with it only the removals).
 * - A setup failure (cwd, shell) is a marker line on stderr, `\0tackle:err:<class>\n`, not an
 *   exit code (that belongs to the command); otherwise `\0tackle:ok\n` comes first on stderr.
 * - The command runs under `setsid` as a background child that is no group leader (the wrapper
 *   is), so busybox setsid does not fork and its pid is its group id: written to CTL/pgid for
 *   the stop script and reported as `\0tackle:pid:<token>:<pid>\n`.
 * - Output goes through two FIFOs and relays, so a background child holding them cannot keep
 *   the exec open: after the command exits its group gets 100 ms, then TERM and KILL, then the
 *   marker sweep (processes that left the group but carry `TACKLE_EXEC_ID=<token>`), then the
 *   relays get COPY_WAIT to finish.
 * - OUTPUT: both streams also go to that file (`tee -a`), or only there (STREAM empty); with
 *   HEAD, through the capper (its own session, ignores TERM, waited for COPY_WAIT at most),
 *   then ASSEMBLE appends the marker and the tail.
 * - The watchdog (`WATCHDOG`), when given, holds the exec's stdin for the command's lifetime.
 * - Last: `\0tackle:end:<token>:<appended>:<status>:<escapes>:<dropped>:<cut>\n` on stderr and
 *   the command's status as the exit code. A wrapper that ends without it was killed.
 */
export const WRAPPER_SCRIPT = shellText`
_count=; _cap=; _drop=; _cut=; _ctl=$1; _sh=$2; _cmd=$3; _out=$4; _stream=$5; _cwd=$6; _grace=$7
_wait=$8; _head=$9; _tail=\${10}; _capper=\${11}; _assemble=\${12}; _fmt=\${13}; _wd=\${14}; _cmdlen=\${15}; shift 15
# A long command comes on stdin (the URL of an exec has a length limit): exactly its bytes.
if [ -n "$_cmdlen" ]; then _cmd=$(dd bs=65536 count="$_cmdlen" iflag=count_bytes,fullblock 2>/dev/null; echo x); _cmd=\${_cmd%x}; fi
_tok=\${_ctl##*-}
if ! cd "$_cwd" 2>/dev/null; then
  if [ ! -e "$_cwd" ]; then _c=not_found; elif [ ! -d "$_cwd" ]; then _c=not_directory; else _c=permission_denied; fi
  printf '\0tackle:err:%s\n' "$_c" >&2; exit 0
fi
command -v "$_sh" >/dev/null 2>&1 || { printf '\0tackle:err:not_supported\n' >&2; exit 0; }
mkdir -m 700 "$_ctl" 2>/dev/null || { printf '\0tackle:err:permission_denied\n' >&2; exit 0; }
printf '\0tackle:ok\n' >&2
# An async list's stdin is /dev/null unless redirected: hand the watchdog the exec's stdin as fd 3.
_dog=
if [ -n "$_wd" ]; then
  exec 3<&0
  setsid sh -c "$_wd" watchdog "$_ctl" "$_tok" "$_grace" <&3 >/dev/null 2>&1 &
  _dog=$!
  exec 3<&- 0</dev/null
fi
run() {
  if [ "$_sh" = pwsh ]; then exec env "$@" TACKLE_EXEC_ID="$_tok" setsid pwsh -NoProfile -NonInteractive -Command "$_cmd"; fi
  exec env "$@" TACKLE_EXEC_ID="$_tok" setsid "$_sh" -c "$_cmd"
}
reap() {
  if [ -e "$_ctl/stop" ]; then
    _i=0; while [ ! -e "$_ctl/stopped" ] && [ "$_i" -lt $((_grace / 50 + 60)) ]; do sleep 0.05; _i=$((_i + 1)); done
    return
  fi
  kill -TERM "-$_pid" 2>/dev/null && { sleep 0.05; kill -KILL "-$_pid" 2>/dev/null; }
}
escaped() { grep -lzxF "TACKLE_EXEC_ID=$_tok" /proc/[0-9]*/environ 2>/dev/null; }
signal_escaped() { for _f in $1; do _p=\${_f#/proc/}; kill "-$2" "\${_p%/environ}" 2>/dev/null; done; }
sweep() {
  { [ -r /proc/self/environ ] && command -v grep >/dev/null 2>&1; } || { _esc=-; return; }
  _e=$(escaped); [ -n "$_e" ] || _e=$(escaped); _esc=0
  [ -n "$_e" ] || return
  signal_escaped "$_e" TERM; _esc=1; _i=0
  while [ "$_i" -lt $((_grace / 50 + 1)) ]; do _e=$(escaped); [ -n "$_e" ] || return; sleep 0.05; _i=$((_i + 1)); done
  signal_escaped "$_e" KILL; _esc=2; _i=0
  while [ "$_i" -lt 40 ]; do _e=$(escaped); [ -n "$_e" ] || return; sleep 0.05; _i=$((_i + 1)); done
  _esc=3
}
cap() {
  mkfifo "$_ctl/c"
  ( trap '' TERM; exec setsid sh -c "$_capper" capper "$_out" "$_head" "$_tail" "$_ctl/tail" ) < "$_ctl/c" &
  _cap=$!
}
[ -n "$_out" ] && _before=$(stat -c %s "$_out" 2>/dev/null || echo 0)
if [ -n "$_out" ] && [ "$_stream" != 1 ]; then
  if [ -n "$_head" ]; then cap; run "$@" > "$_ctl/c" 2>&1 </dev/null &
  else run "$@" >>"$_out" 2>&1 </dev/null &
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
  run "$@" > "$_ctl/o" 2> "$_ctl/e" </dev/null &
  _pid=$!; echo "$_pid" > "$_ctl/pgid"; printf '\0tackle:pid:%s:%s\n' "$_tok" "$_pid" >&2
  wait "$_pid"; _st=$?
  ( sleep 0.1; : >"$_ctl/sweeping"; reap; sweep; echo "$_esc" >"$_ctl/esc"; sleep "$_wait"; kill "$_r1" "$_r2" ) >/dev/null 2>&1 </dev/null & _g=$!
  wait "$_r1" 2>/dev/null; _s1=$?; wait "$_r2" 2>/dev/null; _s2=$?
  [ "$_s1" != 143 ] && [ "$_s2" != 143 ] || _cut=1
  while [ -e "$_ctl/sweeping" ] && [ ! -s "$_ctl/esc" ] && kill -0 "$_g" 2>/dev/null; do sleep 0.02; done
  kill "$_g" 2>/dev/null
  reap
fi
if [ -s "$_ctl/esc" ]; then read -r _esc <"$_ctl/esc"; else sweep; fi
if [ -n "$_cap" ]; then
  ( sleep "$_wait"; kill -KILL "-$_cap" ) >/dev/null 2>&1 </dev/null & _g=$!
  wait "$_cap" 2>/dev/null; [ $? != 137 ] || _cut=1
  kill "$_g" 2>/dev/null
  _drop=$(sh -c "$_assemble" assemble "$_out" "$_tail" "$_ctl/tail" "$_fmt"); _drop=\${_drop%% *}
  [ "$_drop" != - ] && [ "$_drop" != 0 ] || _drop=
fi
[ -n "$_out" ] && _count=$(( $(stat -c %s "$_out" 2>/dev/null || echo 0) - _before ))
: > "$_ctl/done"; [ -n "$_dog" ] && kill -KILL "-$_dog" 2>/dev/null
rm -rf "$_ctl"
printf '\0tackle:end:%s:%s:%s:%s:%s:%s\n' "$_tok" "$_count" "$_st" "$_esc" "$_drop" "$_cut" >&2
exit "$_st"
`;

/** The watchdog's text, handed to the wrapper as an argument. */
export const WATCHDOG_SCRIPT = WATCHDOG;

/**
 * Stops a command's group from a second exec: `sh -c STOP sh CTL GRACE_MS`. Waits briefly for
 * the group id, marks the stop (CTL/stop: the wrapper's reap then leaves the group to it), sends
 * TERM, polls /proc until the group is gone or the grace is over, then KILL and polls again, and
 * marks the stop done (CTL/stopped). Prints `<pgid> <term> <kill> <gone>` (0/1 each), or
 * `- 0 0 1` when the command had already finished (its control directory is gone).
 */
export const STOP_SCRIPT = shellText`
_ctl=$1; _grace=$2; _i=0
while [ ! -s "$_ctl/pgid" ]; do
  [ -d "$_ctl" ] || { echo "- 0 0 1"; exit 0; }
  [ "$_i" -ge 100 ] && { echo "- 0 0 0"; exit 0; }
  sleep 0.01; _i=$((_i + 1))
done
read _pg < "$_ctl/pgid"
gone() {
  for _s in /proc/[0-9]*/stat; do
    read -r _l < "$_s" 2>/dev/null || continue
    set -- \${_l##*) }
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
