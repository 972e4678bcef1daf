import { WRITE_LOCK_SHELL } from "@tackle/operations";
import { shellText } from "./shell-text.js";

/**
 * The exit-code protocol of the file scripts (the same as the Docker adapter's): a failure class
 * is an exit code standing for the errno it means. Scripts decide by testing the path and its
 * parents as the container's user, never by reading a tool's message (busybox and GNU word them
 * differently).
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

/** Exit codes of the failures without an errno. */
export const SCRIPT_CODE = {
  special_file: 97,
  outside_root: 98,
  // 99-101: a conditional write's own failures (CONDITIONAL_WRITE_EXIT, @tackle/operations).
} as const;

/**
 * Functions every script starts with (POSIX sh: busybox ash and bash run them).
 * `explain P`: walks P from `/` and exits with the class of the first component that fails
 * (90 missing, 91 a parent not searchable, 92 a parent that is no directory); returns when P is
 * reachable. `dir_of P`: the parent of P. `inside ROOT DIR`: DIR is ROOT or below it.
 * `sweep DIR DOMAIN MINUTES`: removes temp files of dead writers from DIR (see `write`).
 */
const COMMON =
  WRITE_LOCK_SHELL +
  shellText`
explain() {
  _slash=; case "$1" in */) _slash=1 ;; esac
  _left=\${1#/}; _at=; _up=/
  while [ -n "$_left" ]; do
    _part=\${_left%%/*}
    case "$_left" in */*) _left=\${_left#*/} ;; *) _left= ;; esac
    [ -n "$_part" ] || continue
    _at="$_at/$_part"
    if [ ! -e "$_at" ] && [ ! -L "$_at" ]; then [ -x "$_up" ] || exit 91; exit 90; fi
    if [ -n "$_left" ] || [ -n "$_slash" ]; then
      [ -e "$_at" ] || exit 90; [ -d "$_at" ] || exit 92; [ -x "$_at" ] || exit 91
    fi
    _up=$_at
  done
}
dir_of() { _q=\${1%/*}; printf '%s' "\${_q:-/}"; }
inside() { case "$2/" in "\${1%/}"/*) return 0 ;; esac; return 1; }
sweep() {
  for _f in "$1"/.*.tackle-*.tmp; do
    { [ -f "$_f" ] && [ ! -L "$_f" ]; } || continue
    _rest=\${_f##*.tackle-}; _rest=\${_rest%.tmp}
    _dom=\${_rest%%-*}; _rest=\${_rest#*-}; _wp=\${_rest%%-*}; _rest=\${_rest#*-}; _ws=\${_rest%%-*}; _rnd=\${_rest#*-}
    case $_dom in ''|*[!0-9a-f]*) continue ;; esac
    case $_rnd in ''|*[!0-9a-f]*) continue ;; esac
    [ \${#_dom} -eq 12 ] && [ \${#_rnd} -eq 16 ] || continue
    case $_wp in ''|*[!0-9]*) continue ;; esac
    case $_ws in ''|*[!0-9]*) continue ;; esac
    if [ "$_dom" = "$2" ]; then
      # Same process table: the writer is dead unless its pid still runs with that start time.
      _start=
      if read -r _line <"/proc/$_wp/stat" 2>/dev/null; then
        set -- \${_line##*) }; case $1 in Z|X) ;; *) _start=\${20} ;; esac
      fi
      [ "$_start" = "$_ws" ] && continue
    else
      [ -n "$(find "$_f" -mmin +"$3" 2>/dev/null)" ] || continue
    fi
    rm -f "$_f"
  done
}
`;

/** Script bodies. Arguments come as `$1`, `$2`...: never spliced into the text. */
const SCRIPTS = {
  // $1 path, $2 "-L" to follow a link.
  stat: shellText`
_out=$(stat $2 -c '%f %s %Y %y' "$1" 2>/dev/null) || { explain "$1"; exit 90; }
printf '%s' "$_out"`,
  realpath: shellText`
explain "$1"; [ -e "$1" ] || exit 90
realpath "$1"`,
  readlink: shellText`
explain "$1"; [ -L "$1" ] || exit 95
readlink "$1"`,
  // Entries NUL-terminated: a type letter, then the name.
  readdir: shellText`
explain "$1"; [ -e "$1" ] || exit 90; [ -d "$1" ] || exit 92
cd "$1" 2>/dev/null && [ -r . ] || exit 91
for _e in * .[!.]* ..?*; do
  if [ -L "$_e" ]; then _k=l; elif [ -d "$_e" ]; then _k=d; elif [ -f "$_e" ]; then _k=f; elif [ -e "$_e" ]; then _k=o; else continue; fi
  printf '%s%s\0' "$_k" "$_e"
done`,
  // $1 path, $2 most bytes ("" any), $3 offset to start at.
  read: shellText`
explain "$1"; [ -e "$1" ] || exit 90; [ -d "$1" ] && exit 93; [ -f "$1" ] || exit 97; [ -r "$1" ] || exit 91
[ -z "$2" ] || [ "$(stat -L -c %s "$1")" -le "$2" ] || exit 96
[ "$3" -gt 0 ] && exec dd bs=65536 skip="$3" iflag=skip_bytes status=none < "$1"
exec cat < "$1"`,
  // stdin: exactly $4 bytes of content. $1 path, $2 octal mode of a new file, $3 16 random hex
  // digits, $5 the writer domain (12 hex), $6 the root to stay in ("" none), $7 minutes after
  // which another domain's temp file is abandoned. The directory is opened as fd 9 and every
  // name in it is reached through /proc/self/fd/9, the directory as opened wherever it is now:
  // a directory swapped for a link during the write cannot redirect the temp file, the rename or
  // the cleanup. The temp name records this shell's pid and start time (for the sweep).
  write: shellText`
_t=$1
[ -L "$_t" ] && { _t=$(readlink -f "$1") || exit 90; }
_d=$(dir_of "$_t"); explain "$_d"; [ -e "$_d" ] || exit 90; [ -d "$_d" ] || exit 92
[ -d "$_t" ] && exit 93
[ -e "$_t" ] && [ ! -f "$_t" ] && exit 97
_n=\${_t##*/}
[ -z "$6" ] || _root=$(realpath "$6") || exit 90
command exec 9<"$_d" || exit 91
_h=/proc/self/fd/9
if _where=$(readlink "$_h") && [ -d "$_h/" ]; then :; else _h=$(realpath "$_d") || exit 90; _where=$_h; fi
[ -z "$6" ] || inside "$_root" "$_where" || exit 98
_ex=$8; _wt=$9; _wf=\${10}
# After the 10 arguments come the stat fields from the state (field 3) on: the start time (field 22) is $30.
_pid=0; _st=0
if read -r _line </proc/self/stat 2>/dev/null; then _pid=\${_line%% *}; set -- "$@" \${_line##*) }; _st=\${30}; fi
_short=$_n; [ \${#_n} -gt 60 ] && _short=$(printf '%s' "$_n" | cut -b1-180)
_tmp=".$_short.tackle-$5-$_pid-$_st-$3.tmp"
if [ -e "$_h/$_n" ]; then _m=$(stat -c %a "$_h/$_n"); _own=$(stat -c %u:%g "$_h/$_n"); else _m=$(printf %o $((0$2 & ~0$(umask)))); _own=; fi
if ! (set -C; umask 077; head -c "$4" > "$_h/$_tmp") 2>/dev/null; then rm -f "$_h/$_tmp"; [ -w "$_h/" ] || exit 91; exit 1; fi
# Fewer bytes than announced (the caller went away): never replace the file with a cut copy.
[ "$(stat -c %s "$_h/$_tmp")" = "$4" ] || { rm -f "$_h/$_tmp"; exit 1; }
chmod "$_m" "$_h/$_tmp"
[ -n "$_own" ] && [ "$(id -u)" = 0 ] && chown "$_own" "$_h/$_tmp" 2>/dev/null
if [ -n "$6" ]; then
  if [ "$_h" = /proc/self/fd/9 ]; then _where=$(readlink "$_h"); else _where=$(realpath "$_h"); fi
  inside "$_root" "$_where" || { rm -f "$_h/$_tmp"; exit 98; }
fi
# With a condition: the write lock, then the compare, then the rename, then the lock removed.
_lk=
if [ -n "$_ex" ]; then
  _lk="$_h/$(wl_name "$_n")" || { rm -f "$_h/$_tmp"; exit 1; }
  wl_take "$_lk" "$5" "$_pid" "$_st" "$_wt" "$_wf"; _rc=$?
  [ "$_rc" = 0 ] || { rm -f "$_h/$_tmp"; [ "$_rc" = 2 ] && exit 91; exit 100; }
  if [ "$_ex" = - ]; then
    { [ -e "$_h/$_n" ] || [ -L "$_h/$_n" ]; } && { rm -f "$_lk" "$_h/$_tmp"; exit 99; }
  else
    [ -f "$_h/$_n" ] || { rm -f "$_lk" "$_h/$_tmp"; exit 99; }
    _sum=$(wl_sha "$_h/$_n"); _rc=$?
    [ "$_rc" = 2 ] && { rm -f "$_lk" "$_h/$_tmp"; exit 101; }
    [ "$_rc" = 0 ] && [ "$_sum" = "$_ex" ] || { rm -f "$_lk" "$_h/$_tmp"; exit 99; }
  fi
fi
# -T: never into a directory that took the name meanwhile; an mv without -T gets the check by hand.
if ! mv -fT "$_h/$_tmp" "$_h/$_n" 2>/dev/null; then
  [ -e "$_h/$_tmp" ] || { rm -f \${_lk:+"$_lk"}; exit 1; }
  [ -d "$_h/$_n" ] && { rm -f \${_lk:+"$_lk"} "$_h/$_tmp"; exit 93; }
  mv -f "$_h/$_tmp" "$_h/$_n" || { rm -f \${_lk:+"$_lk"} "$_h/$_tmp"; exit 1; }
fi
[ -n "$_lk" ] && rm -f "$_lk"
sweep "$_h" "$5" "$7"
exec 9<&-`,
  // After an aborted write: $1 the path written, $2 its random token. The writer sees its stdin
  // end when the connection closes and removes its temp file; wait (2 s at most) until it did,
  // then remove what is left, so the write can no longer land.
  settle_write: shellText`
_t=$1; [ -L "$_t" ] && _t=$(readlink -f "$1")
_d=$(dir_of "$_t"); _i=0
while [ "$_i" -lt 100 ]; do
  set -- "$_d"/.*.tackle-*-"$2".tmp
  [ -e "$1" ] || exit 0
  sleep 0.02; _i=$((_i + 1))
done
rm -f "$@"`,
  // $1 path, $2 "-p" for recursive.
  mkdir: shellText`
if [ -e "$1" ] || [ -L "$1" ]; then [ -n "$2" ] && [ -d "$1" ] && exit 0; exit 94; fi
mkdir $2 "$1" 2>/dev/null && exit 0
_a=$(dir_of "$1")
[ -n "$2" ] && while [ "$_a" != / ] && [ ! -e "$_a" ] && [ ! -L "$_a" ]; do _a=$(dir_of "$_a"); done
explain "$_a"; [ -e "$_a" ] || exit 90; [ -d "$_a" ] || exit 92; [ -w "$_a" ] || exit 91; exit 1`,
  // $1 path, $2 "r" recursive, $3 "f" force.
  remove: shellText`
if [ ! -e "$1" ] && [ ! -L "$1" ]; then [ -n "$3" ] && exit 0; explain "$1"; exit 90; fi
if [ -d "$1" ] && [ ! -L "$1" ]; then
  if [ -n "$2" ]; then rm -rf "$1" 2>/dev/null && exit 0
  else rmdir "$1" 2>/dev/null && exit 0; [ -n "$(ls -A "$1")" ] && exit 94; fi
else rm -f "$1" 2>/dev/null && exit 0
fi
[ -w "$(dir_of "$1")" ] || exit 91; exit 1`,
  // $1 target, $2 link path.
  symlink: shellText`
{ [ -e "$2" ] || [ -L "$2" ]; } && exit 94
ln -s "$1" "$2" 2>/dev/null && exit 0
_a=$(dir_of "$2"); explain "$_a"; [ -d "$_a" ] || exit 92; [ -w "$_a" ] || exit 91; exit 1`,
  // $1 from, $2 to.
  rename: shellText`
[ -e "$1" ] || [ -L "$1" ] || { explain "$1"; exit 90; }
explain "$(dir_of "$2")"
if [ -d "$2" ] && [ ! -L "$2" ]; then
  [ -d "$1" ] && [ ! -L "$1" ] || exit 93
  [ -n "$(ls -A "$2")" ] && exit 94
  rmdir "$2" 2>/dev/null || exit 91
fi
mv -f "$1" "$2" 2>/dev/null && exit 0
[ -w "$(dir_of "$1")" ] && [ -w "$(dir_of "$2")" ] || exit 91; exit 1`,
  // $1 path, $2 octal mode.
  chmod: shellText`
explain "$1"; [ -e "$1" ] || exit 90
chmod "$2" "$1" 2>/dev/null || exit 91`,
} as const;

/** Name of one file script. */
export type FileScriptName = keyof typeof SCRIPTS;

/** The whole `sh -c` text of one file script. */
export function fileScript(name: FileScriptName): string {
  return `${COMMON}\n${SCRIPTS[name]}\n`;
}
