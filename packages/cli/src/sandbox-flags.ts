import { resolve } from "node:path";
import type { SandboxOptions } from "@tackle/operations";
import { UsageError } from "./usage-error.js";

/** `--sandbox` and its companions: `tool`, `mcp` and `run` take them with the environment flags. */
export const SANDBOX_OPTIONS = {
  sandbox: { type: "boolean" },
  "no-sandbox": { type: "boolean" },
  "sandbox-network": { type: "string" },
  "sandbox-allow": { type: "string", multiple: true },
  "sandbox-write": { type: "string", multiple: true },
} as const;

/** The parsed values of {@link SANDBOX_OPTIONS}. */
export interface SandboxFlags {
  sandbox?: boolean | undefined;
  "no-sandbox"?: boolean | undefined;
  "sandbox-network"?: string | undefined;
  "sandbox-allow"?: string[] | undefined;
  "sandbox-write"?: string[] | undefined;
}

/**
 * The shell tools' sandbox from the flags: `undefined` without any (the environment's default,
 * which is none), `false` for `--no-sandbox`, else the profile (`--sandbox-allow`,
 * `--sandbox-network` and `--sandbox-write` imply `--sandbox`). Contradictions are usage errors.
 */
export function sandboxOptionsOf(values: SandboxFlags): SandboxOptions | false | undefined {
  const allow = values["sandbox-allow"] ?? [];
  const write = values["sandbox-write"] ?? [];
  const network = values["sandbox-network"];
  const asked = values.sandbox === true || allow.length > 0 || write.length > 0 || network !== undefined;
  if (values["no-sandbox"] === true) {
    if (asked)
      throw new UsageError(
        "--no-sandbox runs commands without the sandbox: drop it, or drop --sandbox and the --sandbox-* flags.",
      );
    return false;
  }
  if (!asked) return undefined;
  if (network !== undefined && network !== "on" && network !== "off")
    throw new UsageError(
      `--sandbox-network takes on or off; got "${network}". To allow some hosts only, use --sandbox-allow HOST.`,
    );
  if (network !== undefined && allow.length > 0)
    throw new UsageError(
      "--sandbox-allow already sets the network to those hosts only: drop --sandbox-network.",
    );
  for (const host of allow) {
    if (!/^(\*\.)?[A-Za-z0-9._-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host))
      throw new UsageError(
        `--sandbox-allow takes a host, *.domain or host:port, e.g. --sandbox-allow registry.npmjs.org; got "${host}".`,
      );
  }
  return {
    network: allow.length > 0 ? { allow } : network === "on" ? "on" : "off",
    ...(write.length > 0 ? { writable: write.map((path) => resolve(path)) } : {}),
  };
}
