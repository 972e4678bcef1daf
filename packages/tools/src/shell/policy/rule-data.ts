/** Programs that fetch from the network (their output piped to a shell runs remote code). */
export const DOWNLOADERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "httpie",
  "xh",
]);

/** Programs that run code they are given (a shell, an interpreter, `eval`, `source`). */
export const SCRIPT_RUNNERS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "fish",
  "source",
  ".",
  "eval",
  "python",
  "python3",
  "python2",
  "perl",
  "ruby",
  "node",
  "php",
  "pwsh",
  "powershell",
]);

/** Commands that run something with other (usually root) privileges. */
export const PRIVILEGE_COMMANDS: ReadonlySet<string> = new Set([
  "sudo",
  "su",
  "doas",
  "pkexec",
  "runuser",
  "gosu",
  "su-exec",
  "setpriv",
]);

/** Full-screen programs that need a terminal: editors, pagers, monitors. */
export const EDITORS_AND_PAGERS: ReadonlySet<string> = new Set([
  "vi",
  "vim",
  "nvim",
  "view",
  "nano",
  "pico",
  "emacs",
  "micro",
  "joe",
  "ed",
  "mcedit",
  "less",
  "more",
  "most",
  "top",
  "htop",
  "btop",
  "atop",
  "watch",
  "tmux",
  "screen",
]);

/** Interpreters and clients that start an interactive session when given no arguments. */
export const REPLS: ReadonlySet<string> = new Set([
  "python",
  "python3",
  "python2",
  "ipython",
  "node",
  "nodejs",
  "deno",
  "irb",
  "pry",
  "ghci",
  "lua",
  "R",
  "sqlite3",
  "psql",
  "mysql",
  "mongo",
  "mongosh",
  "redis-cli",
  "php",
  "scala",
  "clojure",
  "erl",
  "iex",
  "julia",
  "ssh",
  "ftp",
  "telnet",
]);

/**
 * Literal targets that are broad whatever the cwd: the filesystem root, a home directory
 * (`~`, `~user`), everything in the cwd (`*`, `.`, `./*`).
 */
export function isBroadLiteral(value: string): boolean {
  const v = value.replace(/\/+$/, "/");
  return (
    ["/", "/*", "~", "~/", "~/*", "*", ".*", "/.*", ".", "./", "./*", "./.*"].includes(v) ||
    /^\/+\*?$/.test(v) ||
    /^~[A-Za-z0-9._-]+\/?\*?$/.test(v)
  );
}
