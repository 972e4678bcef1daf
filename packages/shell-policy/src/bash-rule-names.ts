import { WRAPPERS } from "./bash-invocation.js";
import { DOWNLOADERS, EDITORS_AND_PAGERS, PRIVILEGE_COMMANDS, REPLS, SCRIPT_RUNNERS } from "./rule-data.js";

/**
 * Every command name the bash rules look at, by its base name (`/usr/bin/sudo` is `sudo`). A
 * command named otherwise is never judged: `checkInvocation` returns for it at once, and the fast
 * path (`plain-command.ts`) allows a command made only of such names (that asks nothing on stdin,
 * see `stdinQuestion`) without parsing it. A new rule keyed on a command name adds the name here,
 * or it never fires (its own test shows that at once).
 */
export const BASH_RULE_COMMANDS: ReadonlySet<string> = new Set([
  ...Object.keys(WRAPPERS),
  ...PRIVILEGE_COMMANDS,
  ...DOWNLOADERS,
  ...SCRIPT_RUNNERS,
  ...EDITORS_AND_PAGERS,
  ...REPLS,
  // Named in the rules themselves (bash-rules.ts).
  "rm",
  "find",
  "chmod",
  "tee",
  "cd",
  "pushd",
  "tail",
  "git",
  "eval",
]);
