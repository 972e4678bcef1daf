/**
 * The file scripts of `"basic"` mode: POSIX sh using only what an emulated bash (just-bash)
 * also has — `test`, `printf`, `wc`, `readlink`, `realpath`, `mkdir`, `rm`, `rmdir`, `ln`, `mv`,
 * `chmod` and globs. No `--` (an emulated tool may take it for a name): every path is absolute,
 * so none starts with `-`. A failure class is an exit code standing for an errno
 * (`SCRIPT_EXIT` of `@tackle/operations`): 90 missing, 92 not a directory, 93 a directory,
 * 94 exists, 95 not a link.
 */
import { shellText } from "@tackle/operations/container-scripts";

/** Exits 92 when the parent of `$1` exists and is not a directory. */
const PARENT = shellText`
_p=\${1%/*}; [ -n "$_p" ] && [ -e "$_p" ] && [ ! -d "$_p" ] && exit 92
`;

export const BASIC_SCRIPTS = {
  // $1 path, $2 "-L" to follow links. Prints "<type letter> <size> <octal mode>" (mode 0 when
  // the shell's stat has no %a; a link's own mode is not read).
  stat:
    PARENT +
    shellText`
if [ -L "$1" ] && [ -z "$2" ]; then _t=$(readlink "$1"); printf 'l %s 0' "\${#_t}"; exit 0; fi
[ -e "$1" ] || exit 90
_m=$(stat -c %a "$(realpath "$1")" 2>/dev/null); [ -n "$_m" ] || _m=0
if [ -d "$1" ]; then printf 'd 0 %s' "$_m"; elif [ -f "$1" ]; then printf 'f %s %s' "$(wc -c < "$1")" "$_m"; else printf 'o 0 %s' "$_m"; fi`,
  // NUL-separated entries: one type letter then the name.
  readdir:
    PARENT +
    shellText`
[ -e "$1" ] || exit 90; [ -d "$1" ] || exit 92
cd "$1" || exit 91
for _f in * .[!.]* ..?*; do
  if [ -L "$_f" ]; then _t=l; elif [ -d "$_f" ]; then _t=d; elif [ -f "$_f" ]; then _t=f; elif [ -e "$_f" ]; then _t=o; else continue; fi
  printf '%s%s\0' "$_t" "$_f"
done`,
  realpath: `${PARENT}[ -e "$1" ] || exit 90\nrealpath "$1"`,
  readlink: `${PARENT}if [ -L "$1" ]; then readlink "$1"; exit 0; fi\n[ -e "$1" ] && exit 95\nexit 90`,
  // $1 path, $2 "-p" for recursive.
  mkdir:
    PARENT +
    shellText`
if [ -e "$1" ] || [ -L "$1" ]; then [ -n "$2" ] && [ -d "$1" ] && exit 0; exit 94; fi
if [ -n "$2" ]; then mkdir -p "$1"; exit; fi
_p=\${1%/*}; [ -e "\${_p:-/}" ] || exit 90
mkdir "$1"`,
  // $1 path, $2 "r" recursive, $3 "f" force.
  remove:
    PARENT +
    shellText`
if [ ! -e "$1" ] && [ ! -L "$1" ]; then [ -n "$3" ] && exit 0; exit 90; fi
if [ -d "$1" ] && [ ! -L "$1" ]; then
  if [ -n "$2" ]; then rm -rf "$1"; exit; fi
  for _f in "$1"/* "$1"/.[!.]* "$1"/..?*; do { [ -e "$_f" ] || [ -L "$_f" ]; } && exit 94; done
  rmdir "$1"
else rm -f "$1"
fi`,
  // $1 target, $2 link path.
  symlink: shellText`
{ [ -e "$2" ] || [ -L "$2" ]; } && exit 94
_p=\${2%/*}; [ -e "\${_p:-/}" ] || exit 90; [ -d "\${_p:-/}" ] || exit 92
ln -s "$1" "$2"`,
  // $1 from, $2 to.
  rename: shellText`
{ [ -e "$1" ] || [ -L "$1" ]; } || exit 90
[ -d "$2" ] && [ ! -L "$2" ] && [ ! -d "$1" ] && exit 93
mv -f "$1" "$2"`,
  // $1 path, $2 octal mode.
  chmod: `${PARENT}[ -e "$1" ] || exit 90\nchmod "$2" "$1"`,
} as const;

/** Name of one basic-mode script. */
export type BasicScriptName = keyof typeof BASIC_SCRIPTS;
