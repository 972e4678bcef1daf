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

/** A program that asks a question on stdin unless told not to. */
export interface PromptingProgram {
  /** Only these subcommands ask (e.g. `apt-get install`, not `apt-get update`). */
  subcommands?: ReadonlySet<string>;
  /** Flags that make it ask nothing (e.g. `-y`). */
  quiet?: readonly string[];
  /** It asks only with one of these flags (e.g. `rm -i`). */
  asksWith?: readonly string[];
  /** How to run it without a question, said to the model. */
  answer: string;
}

const YES = ["-y", "--yes", "--assume-yes", "--assumeyes"] as const;

/** Programs known to ask on stdin, and how to run them without asking. */
export const PROMPTING_PROGRAMS: Readonly<Record<string, PromptingProgram>> = {
  "apt-get": {
    subcommands: new Set([
      "install",
      "remove",
      "purge",
      "upgrade",
      "dist-upgrade",
      "full-upgrade",
      "autoremove",
    ]),
    quiet: YES,
    answer: "add -y (e.g. `apt-get install -y PACKAGE`)",
  },
  apt: {
    subcommands: new Set(["install", "remove", "purge", "upgrade", "full-upgrade", "autoremove"]),
    quiet: YES,
    answer: "add -y (e.g. `apt install -y PACKAGE`)",
  },
  dnf: {
    subcommands: new Set(["install", "remove", "erase", "upgrade", "update", "autoremove"]),
    quiet: YES,
    answer: "add -y",
  },
  yum: {
    subcommands: new Set(["install", "remove", "erase", "upgrade", "update", "autoremove"]),
    quiet: YES,
    answer: "add -y",
  },
  npm: { subcommands: new Set(["init"]), quiet: ["-y", "--yes"], answer: "add -y (`npm init -y`)" },
  yarn: { subcommands: new Set(["init"]), quiet: ["-y", "--yes"], answer: "add -y (`yarn init -y`)" },
  pip: { subcommands: new Set(["uninstall"]), quiet: ["-y", "--yes"], answer: "add -y" },
  pip3: { subcommands: new Set(["uninstall"]), quiet: ["-y", "--yes"], answer: "add -y" },
  conda: {
    subcommands: new Set(["install", "remove", "uninstall", "create", "update", "upgrade"]),
    quiet: ["-y", "--yes"],
    answer: "add -y",
  },
  rm: { asksWith: ["-i", "-I", "--interactive"], answer: "drop -i (and use -f only where you mean it)" },
  cp: { asksWith: ["-i", "--interactive"], answer: "drop -i (-n keeps existing files, -f overwrites them)" },
  mv: { asksWith: ["-i", "--interactive"], answer: "drop -i (-n keeps existing files, -f overwrites them)" },
  "ssh-keygen": {
    quiet: ["-N", "-l", "-y", "-F", "-R", "-Y", "-e", "-i"],
    answer: "pass the passphrase and file: `ssh-keygen -N '' -f FILE` (plus -t TYPE)",
  },
  passwd: { answer: "it needs a person at a terminal: ask the user to run it" },
};
