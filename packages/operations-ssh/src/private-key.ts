import ssh2 from "ssh2";
import { SshConnectionError } from "./errors.js";

const OPENSSH_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
const OPENSSH_MAGIC = "openssh-key-v1\0";

/**
 * Whether a private key is encrypted, read from the key's own structure (never from a parser's
 * message): the cipher name of an OpenSSH key, the `Proc-Type: 4,ENCRYPTED` header of a PEM key,
 * an `ENCRYPTED PRIVATE KEY` PKCS#8 block, or the `Encryption:` line of a PuTTY key.
 */
export function isEncryptedPrivateKey(key: string | Uint8Array): boolean {
  const text = typeof key === "string" ? key : Buffer.from(key).toString("latin1");
  if (text.includes(OPENSSH_BEGIN)) {
    const body = text.slice(text.indexOf(OPENSSH_BEGIN) + OPENSSH_BEGIN.length).split("-----")[0] ?? "";
    const blob = Buffer.from(body.replace(/\s+/g, ""), "base64");
    if (blob.subarray(0, OPENSSH_MAGIC.length).toString("latin1") !== OPENSSH_MAGIC) return false;
    const at = OPENSSH_MAGIC.length;
    if (blob.length < at + 4) return false;
    const length = blob.readUInt32BE(at);
    return blob.subarray(at + 4, at + 4 + length).toString("latin1") !== "none";
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) return true;
  if (/^Proc-Type:\s*4,ENCRYPTED/m.test(text)) return true;
  const putty = /^Encryption:\s*(\S+)/m.exec(text);
  return putty !== null && putty[1] !== "none";
}

/**
 * Checks that a private key can be used before any connection: an encrypted key needs its
 * passphrase, and the passphrase must decrypt it. Returns the typed error (`key_encrypted` or
 * `key_invalid`) with the next step, or `undefined` when the key is usable.
 */
export function privateKeyProblem(
  key: string | Uint8Array,
  passphrase: string | undefined,
): SshConnectionError | undefined {
  const data = typeof key === "string" ? key : Buffer.from(key);
  const encrypted = isEncryptedPrivateKey(key);
  if (encrypted && passphrase === undefined) {
    return new SshConnectionError(
      "key_encrypted",
      "The private key is encrypted and no passphrase was given. Pass its passphrase (passphrase option), or load the key into an ssh-agent (ssh-add) and use agent instead of privateKey.",
    );
  }
  const parsed = ssh2.utils.parseKey(data, passphrase);
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  // A public key parses too: only a private one can log in.
  if (first === undefined || first instanceof Error || !first.isPrivateKey()) {
    return new SshConnectionError(
      "key_invalid",
      encrypted
        ? "The passphrase does not decrypt the private key. Check the passphrase."
        : "The private key cannot be read: it is not an OpenSSH, PEM or PuTTY private key. Check that you passed the private key (not the .pub file).",
      first instanceof Error ? { cause: first } : {},
    );
  }
  return undefined;
}
