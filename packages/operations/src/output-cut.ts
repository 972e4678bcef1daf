/**
 * The output budget of `exec` (`ExecOptions.outputLimitBytes`): what the output file keeps when a
 * command prints more, the same on every adapter. One copy of the split, the marker text and the
 * remote shell scripts that enforce it over SSH and in a container.
 *
 * The rule: the command keeps running (until it ends, its timeout or an abort: the budget bounds
 * disk, the timeout bounds time). The file keeps the first `outputHeadBytes(limit)` bytes as they
 * come, then drops the middle and keeps a rolling window of the last `outputTailBytes(limit)`
 * bytes, which is appended after a marker line once the output ends. A runaway build's final
 * error lines are therefore kept, and its exit code still decides its status.
 */

/** What the output file kept when the output went past `ExecOptions.outputLimitBytes`. */
export interface OutputCut {
  /** Bytes kept from the start of the output (`outputHeadBytes(limit)`). */
  headBytes: number;
  /** Bytes dropped between the head and the tail; the marker line in the file states the same. */
  droppedBytes: number;
  /** Bytes kept from the end of the output (`outputTailBytes(limit)`), after the marker line. */
  tailBytes: number;
}

/** Bytes of the start of the output kept under `limit`: half of it. */
export function outputHeadBytes(limit: number): number {
  return Math.floor(Math.floor(limit) / 2);
}

/** Bytes of the end of the output kept under `limit`: the other half. */
export function outputTailBytes(limit: number): number {
  return Math.floor(limit) - outputHeadBytes(limit);
}

/**
 * The line written between the head and the tail of a cut output (with a newline on each side,
 * as the head may end inside a line). Plain digits, so a remote shell can print the same text.
 */
export function outputCutMarker(limit: number, droppedBytes: number): string {
  return markerText(limit, String(droppedBytes));
}

/**
 * The marker as a printf format whose one `%s` is the dropped byte count, for the remote
 * scripts (the numbers in it are digits, so it holds no other `%`).
 */
export function outputCutMarkerFormat(limit: number): string {
  return markerText(limit, "%s").replaceAll("\n", "\\n");
}

function markerText(limit: number, dropped: string): string {
  return `\n[tackle: ${dropped} bytes of output dropped here: the output went past its ${Math.floor(limit)}-byte limit; the first ${outputHeadBytes(limit)} and the last ${outputTailBytes(limit)} bytes are kept]\n`;
}

/**
 * `p`, the size of the pieces a remote capper keeps the tail in: a quarter of the tail, at least
 * 64 KB (a piece is one `dd`, one `stat` and one `rm`: fewer pieces, fewer processes per
 * megabyte). While the command runs the environment holds at most the head, the tail and one
 * piece more (for a small tail: the head and two pieces).
 */
const PIECE_SIZE = 'p=$(( (t + 3) / 4 )); [ "$p" -ge 65536 ] || p=65536';

/** `size FILE`: its size in bytes, 0 when missing (stat: busybox `wc -c` reads the whole file). */
const SIZE_FUNCTION = `size() { stat -c %s -- "$1" 2>/dev/null || wc -c 2>/dev/null <"$1" || echo 0; }`;

/**
 * POSIX sh that caps one command's output on a remote host or in a container, with its stdin on
 * the command's output: `sh -c OUTPUT_CAPPER_SCRIPT capper OUT HEAD TAIL PREFIX`. It appends the
 * first HEAD bytes to OUT as they arrive, each read written at once (so a prompt shows while the
 * command waits) and nothing past HEAD read: in rounds of `dd` reads of at most the bytes left (a
 * pipe's reads are short, so a round copies a part of what is left: about twenty rounds for
 * 128 MB), and after the first round, with a megabyte or more left, in one `head -c` made
 * unbuffered by `stdbuf -o0` where GNU coreutils has them.
 * Then it keeps the rest in pieces `PREFIX.<n>` of a fixed size, deleting pieces older than the
 * last TAIL bytes need; `PREFIX.n` holds the number of the piece being written. It never stops
 * the command; it ends when the last writer closes its input. `OUTPUT_ASSEMBLE_SCRIPT` then
 * finishes OUT.
 */
export const OUTPUT_CAPPER_SCRIPT = [
  `out=$1; t=$3; pre=$4`,
  SIZE_FUNCTION,
  `end=$(( $(size "$out") + $2 ))`,
  "while :; do",
  `  n=$(size "$out"); r=$((end - n))`,
  `  [ "$r" -gt 0 ] || break`,
  // After a first round, a megabyte or more still to copy: the rest in one unbuffered process
  // where there is one (a short output never gets here: it costs no process more). A failure
  // to start it leaves the rounds to go on.
  `  if [ -n "$round" ] && [ "$r" -ge 1048576 ] && [ -z "$rounds" ]; then`,
  `    if stdbuf -o0 head -c "$r" >>"$out" 2>/dev/null; then [ "$(size "$out")" -gt "$n" ] || exit 0; else rounds=1; fi`,
  "    continue",
  "  fi",
  "  round=1",
  `  if [ "$r" -ge 65536 ]; then b=65536; elif [ "$r" -ge 512 ]; then b=512; else b=$r; fi`,
  // Without fullblock a read may be short: count reads of at most b bytes never pass the head.
  `  dd bs="$b" count=$((r / b)) 2>/dev/null >>"$out"`,
  `  [ "$(size "$out")" -gt "$n" ] || exit 0`,
  "done",
  PIECE_SIZE,
  `[ "$t" -gt 0 ] || { cat >/dev/null; exit 0; }`,
  // Pieces the last t bytes can span besides the one being written.
  "need=$(( (t + p - 1) / p )); j=0",
  "while :; do",
  `  rm -f "$pre.$((j - need - 1))"; echo "$j" >"$pre.n"`,
  `  dd bs=65536 iflag=fullblock,count_bytes count="$p" of="$pre.$j" 2>/dev/null`,
  `  [ "$(size "$pre.$j")" -ge "$p" ] || exit 0`,
  "  j=$((j + 1))",
  "done",
].join("\n");

/**
 * POSIX sh that finishes a capped output once the capper ended:
 * `sh -c OUTPUT_ASSEMBLE_SCRIPT assemble OUT TAIL PREFIX FORMAT`. When the output went past the
 * head it appends the marker (FORMAT: `outputCutMarkerFormat`) when bytes were dropped, then the
 * last TAIL bytes from the pieces, and removes them. Prints `<dropped> <size of OUT>`; dropped is
 * `-` when the output never went past the head.
 */
export const OUTPUT_ASSEMBLE_SCRIPT = [
  `out=$1; t=$2; pre=$3; fmt=$4`,
  SIZE_FUNCTION,
  `if [ ! -e "$pre.n" ]; then echo "- $(size "$out")"; exit 0; fi`,
  PIECE_SIZE,
  `read -r j <"$pre.n"`,
  `all=$((j * p + $(size "$pre.$j")))`,
  `keep=$all; [ "$keep" -le "$t" ] || keep=$t; drop=$((all - keep))`,
  `[ "$drop" -eq 0 ] || printf "$fmt" "$drop" >>"$out"`,
  `q=$((j - (t + p - 1) / p)); [ "$q" -ge 0 ] || q=0`,
  `while [ "$q" -le "$j" ]; do`,
  `  from=$((drop - q * p))`,
  `  if [ "$from" -lt "$(size "$pre.$q")" ]; then`,
  `    if [ "$from" -gt 0 ]; then tail -c +$((from + 1)) "$pre.$q" >>"$out"; else cat "$pre.$q" >>"$out"; fi`,
  "  fi",
  `  rm -f "$pre.$q"; q=$((q + 1))`,
  "done",
  `rm -f "$pre.n"`,
  `echo "$drop $(size "$out")"`,
].join("\n");
