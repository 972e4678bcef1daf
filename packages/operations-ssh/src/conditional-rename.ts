import {
  OperationError,
  WRITE_LOCK_SHELL,
  WRITE_LOCK_SHELL_FOREIGN_MINUTES,
  WRITE_LOCK_SHELL_TRIES,
  WRITE_LOCK_WAIT_MS,
} from "@tackle/operations";
import type { Session } from "./connection.js";
import { runRemote } from "./remote-command.js";
import { shellQuote } from "./shell-quote.js";

/** Exit codes of the script below. */
const EXIT = { changed: 99, lockTimeout: 101, lockRefused: 102, noHash: 103, isDirectory: 104 } as const;

/**
 * The compare and the rename of a conditional write, in one remote shell: take the write lock of
 * the target (`wl_take`, the convention of `@tackle/operations`), compare the target with the
 * condition, rename the uploaded temp file over it, remove the lock. Nothing crosses the network
 * between the compare and the rename. Arguments: $1 temp file, $2 target, $3 the condition
 * (`writeExpectationWord`), $4 the writer domain, $5 the lock's tries, $6 its foreign age (min).
 */
const SCRIPT = `${WRITE_LOCK_SHELL}
_from=$1; _to=$2; _ex=$3; _dom=$4
_d=\${_to%/*}; [ -z "$_d" ] && _d=/; _n=\${_to##*/}
_pid=0; _st=0
if read -r _l </proc/self/stat 2>/dev/null; then _pid=\${_l%% *}; _l=\${_l##*) }; _st=$(printf '%s' "$_l" | cut -d' ' -f20); fi
_lk="$_d/$(wl_name "$_n")" || exit 1
wl_take "$_lk" "$_dom" "$_pid" "$_st" "$5" "$6"; _r=$?
[ "$_r" = 0 ] || exit $((100 + _r))
if [ "$_ex" = - ]; then
  { [ -e "$_to" ] || [ -L "$_to" ]; } && { rm -f "$_lk"; exit ${EXIT.changed}; }
else
  [ -f "$_to" ] || { rm -f "$_lk"; exit ${EXIT.changed}; }
  _h=$(wl_sha "$_to"); _r=$?
  [ "$_r" = 2 ] && { rm -f "$_lk"; exit ${EXIT.noHash}; }
  { [ "$_r" = 0 ] && [ "$_h" = "$_ex" ]; } || { rm -f "$_lk"; exit ${EXIT.changed}; }
fi
{ [ -d "$_to" ] && [ ! -L "$_to" ]; } && { rm -f "$_lk"; exit ${EXIT.isDirectory}; }
mv -f "$_from" "$_to"; _r=$?
rm -f "$_lk"
exit $_r
`;

/**
 * Renames `from` over `to` only if `to` holds what `condition` says (see
 * `WriteFileOptions.expect`), on an exec channel of `session`. The exec costs a channel open and
 * a shell start (milliseconds on a LAN); the lock is held only for the compare and the `mv`.
 */
export async function conditionalRename(
  session: Session,
  from: string,
  to: string,
  condition: string,
  domain: string,
): Promise<void> {
  const args = [
    from,
    to,
    condition,
    domain,
    String(WRITE_LOCK_SHELL_TRIES),
    String(WRITE_LOCK_SHELL_FOREIGN_MINUTES),
  ];
  const command = `exec sh -c ${shellQuote(SCRIPT)} sh ${args.map(shellQuote).join(" ")}`;
  const result = await runRemote(session, command);
  if (result.exitCode === 0) return;
  const fail = (code: OperationError["code"], what: string) =>
    new OperationError(code, `writeFile: ${to} ${what}; nothing was written`, {
      operation: "writeFile",
      path: to,
    });
  switch (result.exitCode) {
    case EXIT.changed:
      throw fail("changed", "no longer holds what expect said (another writer changed it)");
    case EXIT.lockTimeout:
      throw fail("timeout", `had its write lock held by another writer for ${WRITE_LOCK_WAIT_MS / 1000} s`);
    case EXIT.lockRefused:
      throw fail("permission_denied", "cannot be locked (its directory refuses a new file)");
    case EXIT.noHash:
      throw fail("not_supported", "cannot be compared: the host has no sha256sum, shasum or openssl");
    case EXIT.isDirectory:
      throw fail("is_directory", "is a directory now");
    default:
      throw fail(
        "unknown",
        `was not replaced: the rename script ended with ${result.exitCode ?? result.signal} (${result.stderr.trim().slice(0, 200)})`,
      );
  }
}
