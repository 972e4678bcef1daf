import { createHash, createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * How the server's host key is checked before anything is sent. Exactly one source of trust:
 * a known_hosts file (OpenSSH format, hashed names included) or pinned fingerprints.
 */
export type HostKeyVerification =
  | {
      /** known_hosts file to check against (default `~/.ssh/known_hosts`). */
      knownHostsPath?: string;
    }
  | {
      /** Pinned `SHA256:<base64>` fingerprint(s), as `ssh-keygen -lf` prints them. */
      fingerprint: string | string[];
    }
  | {
      /** Accept any host key. Only for throwaway hosts: it gives up protection against an impostor. */
      insecureAcceptAny: true;
    };

/** Why a host key was refused. */
export type HostKeyProblem = {
  kind: "unknown" | "changed";
  /** Host as known_hosts names it: `host` for port 22, `[host]:port` otherwise. */
  hostPattern: string;
  keyType: string;
  fingerprint: string;
  /** The file that was checked, when the check used one. */
  knownHostsPath?: string;
  /** The known_hosts file does not exist (so nothing could be trusted from it). */
  knownHostsMissing?: boolean;
};

/**
 * How a refusal message phrases pinning a key: a library user sets the `hostKey` option, a
 * command line user passes a flag. The rest of the message is the same for both.
 */
export interface HostKeyWording {
  /** The way to pin `fingerprint`, e.g. `--host-key SHA256:...`. */
  pin(fingerprint: string): string;
}

/** Library wording: the `hostKey` option of `createSshOperations`. */
export const OPTION_WORDING: HostKeyWording = {
  pin: (fingerprint) => `hostKey: { fingerprint: "${fingerprint}" }`,
};

/** `SHA256:<base64 without padding>` of a raw SSH public key blob. */
export function fingerprintOf(keyBlob: Uint8Array): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** The key type string at the start of an SSH public key blob (e.g. `ssh-ed25519`). */
export function keyTypeOf(keyBlob: Uint8Array): string {
  const view = Buffer.from(keyBlob.buffer, keyBlob.byteOffset, keyBlob.byteLength);
  if (view.length < 4) return "unknown";
  const length = view.readUInt32BE(0);
  return view.subarray(4, 4 + length).toString("latin1");
}

/** known_hosts names a non-default port as `[host]:port`. */
export function hostPatternOf(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/**
 * A checker that returns `undefined` for a trusted key or the problem otherwise. The known_hosts
 * file is read when the checker is made (once per connection attempt).
 */
export async function makeHostKeyChecker(
  verification: HostKeyVerification | undefined,
  host: string,
  port: number,
): Promise<(keyBlob: Uint8Array) => HostKeyProblem | undefined> {
  const hostPattern = hostPatternOf(host, port);
  let missing = false;
  const describe = (kind: HostKeyProblem["kind"], blob: Uint8Array, path?: string): HostKeyProblem => ({
    kind,
    hostPattern,
    keyType: keyTypeOf(blob),
    fingerprint: fingerprintOf(blob),
    ...(path ? { knownHostsPath: path } : {}),
    ...(missing ? { knownHostsMissing: true } : {}),
  });
  if (verification && "insecureAcceptAny" in verification && verification.insecureAcceptAny)
    return () => undefined;
  if (verification && "fingerprint" in verification) {
    const pinned = new Set([verification.fingerprint].flat().map((f) => f.trim().replace(/=+$/, "")));
    return (blob) => (pinned.has(fingerprintOf(blob)) ? undefined : describe("changed", blob));
  }
  const path =
    (verification && "knownHostsPath" in verification && verification.knownHostsPath) || defaultKnownHosts();
  let text = "";
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    // A missing file trusts nothing: every key is "unknown", and the message says the file is
    // missing (a mistyped path must not be "fixed" by appending a key to it).
    missing = (error as NodeJS.ErrnoException).code === "ENOENT";
  }
  const entries = parseKnownHosts(text).filter((entry) => lineApplies(entry.hosts, host, port));
  const revoked = entries.filter((entry) => entry.marker === "@revoked");
  const plain = entries.filter((entry) => entry.marker === undefined);
  return (blob) => {
    const key = Buffer.from(blob).toString("base64");
    if (revoked.some((entry) => entry.key === key)) return describe("changed", blob, path);
    if (plain.some((entry) => entry.key === key)) return undefined;
    // A line for this host with the same key type but another key is a changed key (a possible
    // impostor); lines with only other key types mean this key was never seen: unknown.
    const sameType = plain.some((entry) => entry.keyType === keyTypeOf(blob));
    return describe(sameType ? "changed" : "unknown", blob, path);
  };
}

function defaultKnownHosts(): string {
  return join(homedir(), ".ssh", "known_hosts");
}

interface KnownHostsEntry {
  marker: "@revoked" | "@cert-authority" | undefined;
  hosts: string[];
  keyType: string;
  key: string;
}

/** Lines of an OpenSSH known_hosts file (comments and blank lines skipped). */
export function parseKnownHosts(text: string): KnownHostsEntry[] {
  const entries: KnownHostsEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    let marker: KnownHostsEntry["marker"];
    if (fields[0] === "@revoked" || fields[0] === "@cert-authority")
      marker = fields.shift() as KnownHostsEntry["marker"];
    const [hosts, keyType, key] = fields;
    if (!hosts || !keyType || !key) continue;
    entries.push({ marker, hosts: hosts.split(","), keyType, key });
  }
  return entries;
}

/**
 * Whether a known_hosts line names this host: one of its patterns matches and none of its
 * negated ones (`!pattern`) does. As in OpenSSH, a negated match excludes the host from the
 * line even when another pattern (`*`) covers it.
 */
function lineApplies(patterns: string[], host: string, port: number): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith("!")) {
      if (hostMatches(pattern.slice(1), host, port)) return false;
    } else if (hostMatches(pattern, host, port)) {
      matched = true;
    }
  }
  return matched;
}

/** One host pattern of known_hosts against a host and port: hashed, wildcard or plain names. */
function hostMatches(pattern: string, host: string, port: number): boolean {
  const name = hostPatternOf(host, port);
  if (pattern.startsWith("|1|")) {
    const [, , salt, hash] = pattern.split("|");
    if (!salt || !hash) return false;
    const digest = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
    return digest === hash;
  }
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
    "i",
  );
  return regex.test(name);
}

/** `ssh-keyscan [-p PORT] HOST` for a known_hosts host pattern. */
function keyscanCommand(hostPattern: string): string {
  const port = hostPattern.startsWith("[") ? ` -p ${hostPattern.split(":").pop()}` : "";
  return `ssh-keyscan${port} ${hostPattern.replace(/^\[|\]:\d+$/g, "")}`;
}

/**
 * The message of a refused key: what was seen and the exact steps to trust it. `wording` says
 * how pinning is phrased (default: the library option).
 */
export function hostKeyMessage(problem: HostKeyProblem, wording: HostKeyWording = OPTION_WORDING): string {
  const seen = `${problem.keyType} ${problem.fingerprint}`;
  const pin = wording.pin(problem.fingerprint);
  const file = problem.knownHostsPath ?? "~/.ssh/known_hosts";
  if (problem.kind === "changed" && problem.knownHostsPath === undefined) {
    return (
      `Host key for ${problem.hostPattern} matches none of the pinned fingerprints (server offered ${seen}). ` +
      "This may be an impostor. If the host was really re-keyed, check the new fingerprint with the " +
      `host's owner, then pin it: ${pin}.`
    );
  }
  if (problem.kind === "changed") {
    return (
      `Host key for ${problem.hostPattern} does not match ${file} (server offered ${seen}). ` +
      "This may be an impostor. If the host was really re-keyed, remove the old entry " +
      `(ssh-keygen -R '${problem.hostPattern}' -f ${file}) and trust the new key, or pin it: ${pin}.`
    );
  }
  if (problem.knownHostsMissing) {
    return (
      `Host key for ${problem.hostPattern} cannot be checked: the known_hosts file ${file} does not exist ` +
      `(server offered ${seen}). Check the path. To trust this server, check the fingerprint with the ` +
      `host's owner, then create the file (${keyscanCommand(problem.hostPattern)} > ${file}) or pin the key: ${pin}.`
    );
  }
  return (
    `Host key for ${problem.hostPattern} is not in ${file} (server offered ${seen}). ` +
    `To trust it, check the fingerprint with the host's owner, then add the key to ${file} ` +
    `(${keyscanCommand(problem.hostPattern)} >> ${file}) or pin it: ${pin}.`
  );
}
