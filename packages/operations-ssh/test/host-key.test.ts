import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf, hostKeyMessage, makeHostKeyChecker } from "../src/host-key.js";

let dir: string;
const keys: { line: string; blob: Buffer }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-hostkey-"));
  for (const [name, type] of [
    ["a", "ed25519"],
    ["b", "ed25519"],
    ["c", "ecdsa"],
  ] as const) {
    execFileSync("ssh-keygen", ["-q", "-t", type, "-N", "", "-f", join(dir, name)]);
    const line = (await readFile(join(dir, `${name}.pub`), "utf8")).trim().split(" ").slice(0, 2).join(" ");
    keys.push({ line, blob: Buffer.from(line.split(" ")[1] as string, "base64") });
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function checkerFor(text: string, host: string, port: number) {
  const file = join(dir, `known_hosts_${Math.random().toString(36).slice(2)}`);
  await writeFile(file, text);
  return makeHostKeyChecker({ knownHostsPath: file }, host, port);
}

describe("known_hosts", () => {
  it("matches plain names, [host]:port, comma lists and wildcards", async () => {
    const [a] = keys as [{ line: string; blob: Buffer }];
    expect((await checkerFor(`devbox ${a.line}\n`, "devbox", 22))(a.blob)).toBeUndefined();
    expect((await checkerFor(`other,[devbox]:2222 ${a.line}\n`, "devbox", 2222))(a.blob)).toBeUndefined();
    expect((await checkerFor(`*.example.com ${a.line}\n`, "ci.example.com", 22))(a.blob)).toBeUndefined();
    // Port 22 entries do not cover another port.
    expect((await checkerFor(`devbox ${a.line}\n`, "devbox", 2222))(a.blob)?.kind).toBe("unknown");
  });

  it("a negated pattern excludes the host even when a wildcard on the same line covers it", async () => {
    const [a] = keys as [{ line: string; blob: Buffer }];
    const line = `*,!devbox ${a.line}\n`;
    expect((await checkerFor(line, "devbox", 22))(a.blob)?.kind).toBe("unknown");
    expect((await checkerFor(line, "other", 22))(a.blob)).toBeUndefined();
  });

  it("a key outside the pinned fingerprints is refused with the steps to pin, not to edit known_hosts", async () => {
    const [a, b] = keys as [{ line: string; blob: Buffer }, { line: string; blob: Buffer }];
    const check = await makeHostKeyChecker({ fingerprint: fingerprintOf(a.blob) }, "devbox", 22);
    expect(check(a.blob)).toBeUndefined();
    const problem = check(b.blob);
    expect(problem?.kind).toBe("changed");
    const message = hostKeyMessage(problem!);
    expect(message).toContain(`pin it: hostKey: { fingerprint: "${fingerprintOf(b.blob)}" }`);
    expect(message).not.toContain("ssh-keygen");
  });

  it("another key of the same type is changed; only other types on file is unknown", async () => {
    const [a, b, c] = keys as [
      { line: string; blob: Buffer },
      { line: string; blob: Buffer },
      { line: string; blob: Buffer },
    ];
    expect((await checkerFor(`devbox ${a.line}\n`, "devbox", 22))(b.blob)?.kind).toBe("changed");
    expect((await checkerFor(`devbox ${c.line}\n`, "devbox", 22))(a.blob)?.kind).toBe("unknown");
  });

  it("a @revoked key is refused even when also listed as trusted", async () => {
    const [a] = keys as [{ line: string; blob: Buffer }];
    const check = await checkerFor(`devbox ${a.line}\n@revoked * ${a.line}\n`, "devbox", 22);
    expect(check(a.blob)?.kind).toBe("changed");
  });

  it("a missing file trusts nothing and the message says the file is missing", async () => {
    const [a] = keys as [{ line: string; blob: Buffer }];
    const check = await makeHostKeyChecker({ knownHostsPath: join(dir, "absent") }, "devbox", 2200);
    const problem = check(a.blob);
    expect(problem).toMatchObject({
      kind: "unknown",
      fingerprint: fingerprintOf(a.blob),
      hostPattern: "[devbox]:2200",
    });
    expect(problem?.knownHostsMissing).toBe(true);
    const message = hostKeyMessage(problem!);
    expect(message).toContain(`the known_hosts file ${join(dir, "absent")} does not exist`);
    expect(message).toContain("Check the path");
    expect(message).not.toContain(">>");
    expect(message).toContain(`ssh-keyscan -p 2200 devbox > ${join(dir, "absent")}`);
    expect(message).toContain(fingerprintOf(a.blob));
  });

  it("an unknown key with an existing file says to append it, worded for a library or a command line", async () => {
    const [a, , c] = keys as [
      { line: string; blob: Buffer },
      { line: string; blob: Buffer },
      { line: string; blob: Buffer },
    ];
    const problem = (await checkerFor(`devbox ${c.line}\n`, "devbox", 22))(a.blob);
    expect(problem?.knownHostsMissing).toBeUndefined();
    expect(hostKeyMessage(problem!)).toContain(">> ");
    expect(hostKeyMessage(problem!)).toContain(`hostKey: { fingerprint: "${fingerprintOf(a.blob)}" }`);
    const cli = hostKeyMessage(problem!, { pin: (fingerprint) => `--host-key ${fingerprint}` });
    expect(cli).toContain(`or pin it: --host-key ${fingerprintOf(a.blob)}.`);
    expect(cli).not.toContain("hostKey:");
  });

  it("fingerprints match ssh-keygen -lf", async () => {
    const printed = execFileSync("ssh-keygen", ["-l", "-f", join(dir, "a.pub")], { encoding: "utf8" }).split(
      " ",
    )[1];
    expect(fingerprintOf((keys[0] as { blob: Buffer }).blob)).toBe(printed);
  });
});
