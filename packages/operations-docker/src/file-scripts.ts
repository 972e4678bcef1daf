import { shellText } from "./shell-text.js";

/**
 * Exit codes the file scripts use to report a failure class, as the errno the class stands for
 * (mapped to a code by `toOperationError`, like a local failure). The scripts decide with
 * `test` on the path and its parents (as the adapter's user, so permissions are the user's), and
 * never by reading a tool's error message: busybox and GNU word them differently.
 */
export const SCRIPT_EXIT: Record<number, string> = {
  90: "ENOENT",
  91: "EACCES",
  92: "ENOTDIR",
  93: "EISDIR",
  94: "EEXIST",
  95: "EINVAL",
  96: "EFBIG",
};

/**
 * Shared shell functions (POSIX sh; busybox ash and bash both run them).
 * `why P` walks P from the root and exits with the class of the first component that fails:
 * missing (90), a parent that cannot be searched (91), a non-directory parent (92). It returns
 * normally when P itself is reachable.
 */
const PRELUDE = shellText`
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
why "$1"; [ -e "$1" ] || exit 90; [ -d "$1" ] && exit 93; [ -r "$1" ] || exit 91
if [ -n "$2" ] && [ "$(stat -L -c %s "$1")" -gt "$2" ]; then exit 96; fi
# dd seeks to the offset; busybox 'tail -c +N' would read every byte before it.
if [ "$3" -gt 0 ]; then exec dd bs=65536 skip="$3" iflag=skip_bytes status=none < "$1"; fi
exec cat < "$1"`,
  // stdin: content. $1 path, $2 octal mode for a new file, $3 unique temp suffix, $4 byte count.
  write: shellText`
_t=$1
if [ -L "$_t" ]; then _t=$(readlink -f "$1") || exit 90; fi
_d=$(parent_of "$_t"); why "$_d"; [ -e "$_d" ] || exit 90; [ -d "$_d" ] || exit 92
[ -d "$_t" ] && exit 93
_tmp="$_d/.\${_t##*/}.$3.tmp"
if [ -e "$_t" ]; then _m=$(stat -c %a "$_t"); _o=$(stat -c %u:%g "$_t"); else _m=$(printf %o $((0$2 & ~0$(umask)))); _o=; fi
if ! (umask 077 && cat > "$_tmp") 2>/dev/null; then rm -f "$_tmp"; [ -w "$_d" ] || exit 91; exit 1; fi
# A cut-off stdin (the caller aborted) must never replace the file with a truncated copy.
[ "$(stat -c %s "$_tmp")" = "$4" ] || { rm -f "$_tmp"; exit 1; }
chmod "$_m" "$_tmp"
if [ -n "$_o" ] && [ "$(id -u)" = 0 ]; then chown "$_o" "$_tmp" 2>/dev/null; fi
mv -f "$_tmp" "$_t" || { rm -f "$_tmp"; exit 1; }`,
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
export type FileScript = keyof typeof BODIES;

/** The full `sh -c` text of a file operation. */
export function fileScript(name: FileScript): string {
  return `${PRELUDE}\n${BODIES[name]}\n`;
}
