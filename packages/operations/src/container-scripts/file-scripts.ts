import { WRITE_LOCK_SHELL } from "../write-lock.js";
import { shellText } from "./shell-text.js";

/**
 * Exit codes the file scripts use to report a failure class, as the errno the class stands for
 * (mapped to a code by `toOperationError`, like a local failure). The scripts decide with
 * `test` on the path and its parents (as the adapter's user, so permissions are the user's), and
 * never by reading a tool's error message: busybox and GNU word them differently.
 */
export const SCRIPT_EXIT: Readonly<Record<number, string>> = {
  90: "ENOENT",
  91: "EACCES",
  92: "ENOTDIR",
  93: "EISDIR",
  94: "EEXIST",
  95: "EINVAL",
  96: "EFBIG",
};

/**
 * Exit codes for the two failures that have no errno: a FIFO, socket or device where a file was
 * expected (`special_file`), and a write whose directory is not inside its `within` root
 * (`outside_root`).
 */
export const SCRIPT_CODE = {
  special_file: 97,
  outside_root: 98,
  // 99-101: a conditional write's own failures (CONDITIONAL_WRITE_EXIT, @tackle/operations).
} as const;

/**
 * Shared shell functions (POSIX sh; busybox ash and bash both run them).
 * `why P` walks P from the root and exits with the class of the first component that fails:
 * missing (90), a parent that cannot be searched (91), a non-directory parent (92). It returns
 * normally when P itself is reachable.
 */
const PRELUDE =
  WRITE_LOCK_SHELL +
  shellText`
why() {
  case "$1" in */) _tail=1 ;; *) _tail= ;; esac
  _rest=\${1#/}; _cur=; _parent=/
  while [ -n "$_rest" ]; do
    _comp=\${_rest%%/*}
    case "$_rest" in */*) _rest=\${_rest#*/} ;; *) _rest= ;; esac
    [ -z "$_comp" ] && continue
    _cur="$_cur/$_comp"
    if [ ! -e "$_cur" ] && [ ! -L "$_cur" ]; then
      [ -x "$_parent" ] || exit 91
      exit 90
    fi
    if [ -n "$_rest" ] || [ -n "$_tail" ]; then
      [ -e "$_cur" ] || exit 90
      [ -d "$_cur" ] || exit 92
      [ -x "$_cur" ] || exit 91
    fi
    _parent=$_cur
  done
}
parent_of() { _p=\${1%/*}; [ -z "$_p" ] && _p=/; printf '%s' "$_p"; }
inside() { case "$2/" in "\${1%/}"/*) return 0 ;; esac; return 1; }
# sweep DIR DOMAIN MINUTES: removes the temp files of dead writers from DIR: this container's
# processes (same DOMAIN) that no longer run with the recorded pid and start time, or, from any
# other domain, files unchanged for MINUTES. Names are checked field by field (the same shape as
# isTempFileName), so no other file is ever removed.
sweep() {
  _sd=$1; _sm=$2; _sa=$3
  for _f in "$_sd"/.*.tackle-*.tmp; do
    { [ -f "$_f" ] && [ ! -L "$_f" ]; } || continue
    _x=\${_f##*.tackle-}; _x=\${_x%.tmp}
    _fd=\${_x%%-*}; _x=\${_x#*-}; _fp=\${_x%%-*}; _x=\${_x#*-}; _fs=\${_x%%-*}; _fr=\${_x#*-}
    case $_fd in *[!0-9a-f]*|'') continue ;; esac
    case $_fr in *[!0-9a-f]*|'') continue ;; esac
    { [ \${#_fd} -eq 12 ] && [ \${#_fr} -eq 16 ]; } || continue
    case $_fp in *[!0-9]*|'') continue ;; esac
    case $_fs in *[!0-9]*|'') continue ;; esac
    if [ "$_fd" = "$_sm" ]; then
      _now=
      # A zombie (state Z or X) has exited: its start time does not count.
      if read -r _l <"/proc/$_fp/stat" 2>/dev/null; then set -- \${_l##*) }; [ "$1" = Z ] || [ "$1" = X ] || _now=\${20}; fi
      [ "$_now" = "$_fs" ] && continue
    else
      [ -n "$(find "$_f" -mmin +"$_sa" 2>/dev/null)" ] || continue
    fi
    rm -f "$_f"
  done
}
`;

/** The body of each file operation. Arguments arrive as `$1`, `$2`, ... (never spliced in). */
const BODIES = {
  // $1 path, $2 "-L" to follow links or "" not to.
  stat: shellText`
if [ -n "$2" ]; then _s=$(stat -L -c '%f %s %Y %y' "$1" 2>/dev/null); else _s=$(stat -c '%f %s %Y %y' "$1" 2>/dev/null); fi
if [ -z "$_s" ]; then why "$1"; exit 90; fi
printf '%s' "$_s"`,
  realpath: shellText`
why "$1"; [ -e "$1" ] || exit 90
realpath "$1"`,
  readlink: shellText`
why "$1"; [ -L "$1" ] || exit 95
readlink "$1"`,
  // NUL-separated entries: one type letter then the name.
  readdir: shellText`
why "$1"; [ -e "$1" ] || exit 90; [ -d "$1" ] || exit 92
cd "$1" 2>/dev/null || exit 91; [ -r . ] || exit 91
for _f in * .[!.]* ..?*; do
  if [ -L "$_f" ]; then _t=l; elif [ -d "$_f" ]; then _t=d; elif [ -f "$_f" ]; then _t=f; elif [ -e "$_f" ]; then _t=o; else continue; fi
  printf '%s%s\0' "$_t" "$_f"
done`,
  // $1 path, $2 max bytes or "", $3 start offset (0-based).
  read: shellText`
why "$1"; [ -e "$1" ] || exit 90; [ -d "$1" ] && exit 93; [ -f "$1" ] || exit 97; [ -r "$1" ] || exit 91
if [ -n "$2" ] && [ "$(stat -L -c %s "$1")" -gt "$2" ]; then exit 96; fi
# dd seeks to the offset; busybox 'tail -c +N' would read every byte before it.
if [ "$3" -gt 0 ]; then exec dd bs=65536 skip="$3" iflag=skip_bytes status=none < "$1"; fi
exec cat < "$1"`,
  // stdin: content. $1 path, $2 octal mode for a new file, $3 16 random hex digits, $4 byte
  // count, $5 the writer domain (12 hex), $6 the root the write must stay in ("" for none),
  // $7 minutes after which another domain's temp file counts as abandoned, $8 the condition
  // (writeExpectationWord: "" none, "-" absent, else the sha256), $9 the lock's tries, $10 its
  // foreign age in minutes. With a condition, the write lock (wl_take, in the held directory) is
  // taken after the temp file is complete, the target compared, renamed over, the lock removed.
  // The target's directory is opened as fd 9 and every name in it is reached through
  // /proc/self/fd/9 (the directory as opened, wherever it is now; fd 9 is inherited by cat and mv),
  // so a directory swapped for a link mid-write cannot redirect the temp file, the rename or the
  // cleanup. The temp name records this shell (pid, start time: a read builtin on /proc/self/stat).
  write: shellText`
_t=$1
if [ -L "$_t" ]; then _t=$(readlink -f "$1") || exit 90; fi
_d=$(parent_of "$_t"); why "$_d"; [ -e "$_d" ] || exit 90; [ -d "$_d" ] || exit 92
[ -d "$_t" ] && exit 93
[ -e "$_t" ] && [ ! -f "$_t" ] && exit 97
_n=\${_t##*/}
if [ -n "$6" ]; then _r=$(realpath "$6") || exit 90; fi
# "command": a failed redirection of a plain exec would end the shell (exit 1, not 91).
command exec 9<"$_d" || exit 91
_p=/proc/self/fd/9
if _w=$(readlink "$_p") && [ -d "$_p/" ]; then
  [ -n "$6" ] && ! inside "$_r" "$_w" && exit 98
else
  # No /proc: the directory by its real path, checked again right before the rename.
  _p=$(realpath "$_d") || exit 90
  [ -n "$6" ] && ! inside "$_r" "$_p" && exit 98
fi
_ex=$8; _wt=$9; _wf=\${10}
# After the 10 arguments come the stat fields from the state (field 3) on: the start time (field 22) is $30.
_pid=0; _st=0
if read -r _l </proc/self/stat 2>/dev/null; then _pid=\${_l%% *}; set -- "$@" \${_l##*) }; _st=\${30}; fi
_tn=$_n; [ \${#_n} -gt 60 ] && _tn=$(printf '%s' "$_n" | cut -b1-180)
_tmp=".$_tn.tackle-$5-$_pid-$_st-$3.tmp"
if [ -e "$_p/$_n" ]; then _m=$(stat -c %a "$_p/$_n"); _o=$(stat -c %u:%g "$_p/$_n"); else _m=$(printf %o $((0$2 & ~0$(umask)))); _o=; fi
if ! (set -C; umask 077; cat > "$_p/$_tmp") 2>/dev/null; then rm -f "$_p/$_tmp"; [ -w "$_p/" ] || exit 91; exit 1; fi
# A cut-off stdin (the caller aborted) must never replace the file with a truncated copy.
[ "$(stat -c %s "$_p/$_tmp")" = "$4" ] || { rm -f "$_p/$_tmp"; exit 1; }
chmod "$_m" "$_p/$_tmp"
if [ -n "$_o" ] && [ "$(id -u)" = 0 ]; then chown "$_o" "$_p/$_tmp" 2>/dev/null; fi
if [ -n "$6" ]; then
  # Where the held directory is now (it may have been moved): still inside the root?
  if [ "$_p" = /proc/self/fd/9 ]; then _w=$(readlink "$_p"); else _w=$(realpath "$_p"); fi
  inside "$_r" "$_w" || { rm -f "$_p/$_tmp"; exit 98; }
fi
_lk=
if [ -n "$_ex" ]; then
  _lk="$_p/$(wl_name "$_n")" || { rm -f "$_p/$_tmp"; exit 1; }
  wl_take "$_lk" "$5" "$_pid" "$_st" "$_wt" "$_wf"; _r=$?
  [ "$_r" = 0 ] || { rm -f "$_p/$_tmp"; [ "$_r" = 2 ] && exit 91; exit 100; }
  if [ "$_ex" = - ]; then
    { [ -e "$_p/$_n" ] || [ -L "$_p/$_n" ]; } && { rm -f "$_lk" "$_p/$_tmp"; exit 99; }
  else
    [ -f "$_p/$_n" ] || { rm -f "$_lk" "$_p/$_tmp"; exit 99; }
    _h=$(wl_sha "$_p/$_n"); _r=$?
    [ "$_r" = 2 ] && { rm -f "$_lk" "$_p/$_tmp"; exit 101; }
    [ "$_r" = 0 ] && [ "$_h" = "$_ex" ] || { rm -f "$_lk" "$_p/$_tmp"; exit 99; }
  fi
fi
# -T: never move into a directory (or a link to one) that took the target's name meanwhile.
# An mv without -T fails here too and gets the same check done by hand.
if ! mv -fT "$_p/$_tmp" "$_p/$_n" 2>/dev/null; then
  [ -e "$_p/$_tmp" ] || { rm -f \${_lk:+"$_lk"}; exit 1; }
  [ -d "$_p/$_n" ] && { rm -f \${_lk:+"$_lk"} "$_p/$_tmp"; exit 93; }
  mv -f "$_p/$_tmp" "$_p/$_n" || { rm -f \${_lk:+"$_lk"} "$_p/$_tmp"; exit 1; }
fi
[ -n "$_lk" ] && rm -f "$_lk"
sweep "$_p" "$5" "$7"
exec 9<&-`,
  // After an aborted write: $1 the path written, $2 its random token. The writer sees its stdin
  // end when the connection closes and removes its temp file; wait (2 s at most) until it did,
  // then remove what is left, so the write can no longer land.
  settle_write: shellText`
_t=$1; [ -L "$_t" ] && _t=$(readlink -f "$1")
_d=$(parent_of "$_t"); _i=0
while [ "$_i" -lt 100 ]; do
  set -- "$_d"/.*.tackle-*-"$2".tmp
  [ -e "$1" ] || exit 0
  sleep 0.02; _i=$((_i + 1))
done
rm -f "$@"`,
  // $1 path, $2 "-p" for recursive.
  // $1 path, $2 "-p" for recursive.
  mkdir: shellText`
if [ -e "$1" ] || [ -L "$1" ]; then { [ -n "$2" ] && [ -d "$1" ]; } && exit 0; exit 94; fi
mkdir $2 "$1" 2>/dev/null && exit 0
_a=$(parent_of "$1")
if [ -n "$2" ]; then while [ "$_a" != / ] && [ ! -e "$_a" ] && [ ! -L "$_a" ]; do _a=$(parent_of "$_a"); done; fi
why "$_a"; [ -e "$_a" ] || exit 90; [ -d "$_a" ] || exit 92; [ -w "$_a" ] || exit 91; exit 1`,
  // $1 path, $2 "r" recursive, $3 "f" force.
  remove: shellText`
if [ ! -e "$1" ] && [ ! -L "$1" ]; then [ -n "$3" ] && exit 0; why "$1"; exit 90; fi
if [ -d "$1" ] && [ ! -L "$1" ]; then
  if [ -n "$2" ]; then rm -rf "$1" 2>/dev/null && exit 0
  else rmdir "$1" 2>/dev/null && exit 0; [ -n "$(ls -A "$1")" ] && exit 94
  fi
else rm -f "$1" 2>/dev/null && exit 0
fi
[ -w "$(parent_of "$1")" ] || exit 91; exit 1`,
  // $1 target, $2 link path.
  symlink: shellText`
if [ -e "$2" ] || [ -L "$2" ]; then exit 94; fi
ln -s "$1" "$2" 2>/dev/null && exit 0
why "$(parent_of "$2")"; [ -d "$(parent_of "$2")" ] || exit 92; [ -w "$(parent_of "$2")" ] || exit 91; exit 1`,
  // $1 from, $2 to.
  rename: shellText`
if [ ! -e "$1" ] && [ ! -L "$1" ]; then why "$1"; exit 90; fi
why "$(parent_of "$2")"
if [ -d "$2" ] && [ ! -L "$2" ]; then
  { [ -d "$1" ] && [ ! -L "$1" ]; } || exit 93
  [ -n "$(ls -A "$2")" ] && exit 94
  rmdir "$2" 2>/dev/null || exit 91
fi
mv -f "$1" "$2" 2>/dev/null && exit 0
[ -w "$(parent_of "$1")" ] && [ -w "$(parent_of "$2")" ] || exit 91; exit 1`,
  // $1 path, $2 octal mode.
  chmod: shellText`
why "$1"; [ -e "$1" ] || exit 90
chmod "$2" "$1" 2>/dev/null || exit 91`,
} as const;

/** Name of one file operation script. */
export type FileScriptName = keyof typeof BODIES;

/** The full `sh -c` text of a file operation. */
export function fileScript(name: FileScriptName): string {
  return `${PRELUDE}\n${BODIES[name]}\n`;
}
