import type { ParseArgsConfig } from "node:util";
import type { EnvironmentOptions } from "./environment.js";
import { SANDBOX_OPTIONS, type SandboxFlags, sandboxOptionsOf } from "./sandbox-flags.js";
import { UsageError } from "./usage-error.js";

/** The `options` of a `parseArgs` call: what `tackle --help` documents, flag by flag. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/** Options every command that opens an environment accepts. */
export const ENV_OPTIONS = {
  cwd: { type: "string" },
  env: { type: "string" },
  identity: { type: "string" },
  "passphrase-env": { type: "string" },
  "known-hosts": { type: "string" },
  "host-key": { type: "string", multiple: true },
  "connect-timeout": { type: "string" },
  "docker-host": { type: "string" },
  ...SANDBOX_OPTIONS,
} as const satisfies CommandOptions;

/** `--audit FILE|off`: where `tool`, `run` and `mcp` record their calls. */
export const AUDIT_OPTIONS = {
  audit: { type: "string" },
} as const satisfies CommandOptions;

/** Runs a `parseArgs` call and turns its errors into a {@link UsageError} that points at the help. */
export function parseCommandArgs<T>(parse: () => T, command: string): T {
  try {
    return parse();
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/, "");
    throw new UsageError(`${message}. See tackle ${command} --help.`);
  }
}

/** The parsed values of {@link ENV_OPTIONS}. */
export interface EnvironmentFlags extends SandboxFlags {
  cwd?: string | undefined;
  identity?: string | undefined;
  "passphrase-env"?: string | undefined;
  "known-hosts"?: string | undefined;
  "host-key"?: string[] | undefined;
  "connect-timeout"?: string | undefined;
  "docker-host"?: string | undefined;
}

/** `--connect-timeout SECONDS` as milliseconds; anything but a positive number is a usage error. */
function connectTimeoutMs(text: string): number {
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `--connect-timeout takes a positive number of seconds, e.g. --connect-timeout 5; got "${text}".`,
    );
  }
  return Math.round(seconds * 1000);
}

/** The environment options of a parsed command line. Flags that contradict each other are a usage error. */
export function environmentOptionsOf(values: EnvironmentFlags): EnvironmentOptions {
  const hostKeys = values["host-key"] ?? [];
  if (hostKeys.length > 0 && values["known-hosts"] !== undefined) {
    throw new UsageError(
      "--host-key and --known-hosts are two ways to trust the server: give one. --host-key pins the key; --known-hosts checks a file.",
    );
  }
  for (const key of hostKeys) {
    if (!/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(key.trim())) {
      throw new UsageError(
        `--host-key takes a SHA256 fingerprint as ssh-keygen -lf prints it (SHA256: and 43 base64 characters); got "${key}".`,
      );
    }
  }
  const sandbox = sandboxOptionsOf(values);
  return {
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.identity !== undefined ? { identity: values.identity } : {}),
    ...(values["passphrase-env"] !== undefined ? { passphraseEnv: values["passphrase-env"] } : {}),
    ...(values["known-hosts"] !== undefined ? { knownHosts: values["known-hosts"] } : {}),
    ...(hostKeys.length > 0 ? { hostKeys: hostKeys.map((key) => key.trim()) } : {}),
    ...(values["connect-timeout"] !== undefined
      ? { connectTimeoutMs: connectTimeoutMs(values["connect-timeout"]) }
      : {}),
    ...(values["docker-host"] !== undefined ? { dockerHost: values["docker-host"] } : {}),
  };
}
