import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExecOptions, type ExecSpawn, isOperationError, type Operations } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalOperations, sandboxAllows } from "../src/index.js";

const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

async function output(ops: Operations, command: string, options: Partial<ExecOptions> & { cwd: string }) {
  let text = "";
  const result = await ops.exec(command, {
    shell: "bash",
    timeoutMs: 30_000,
    onChunk: (chunk) => {
      text += Buffer.from(chunk.bytes).toString("utf8");
    },
    ...options,
  });
  return { result, text };
}

describe("sandbox allow list matching", () => {
  it("matches hosts, *.domains and ports (80 and 443 without a port)", () => {
    const allow = ["registry.npmjs.org", "*.github.com", "localhost:8080", "[::1]:9000"];
    expect(sandboxAllows(allow, "registry.npmjs.org", 443)).toBe(true);
    expect(sandboxAllows(allow, "REGISTRY.npmjs.org", 80)).toBe(true);
    expect(sandboxAllows(allow, "registry.npmjs.org", 22)).toBe(false);
    expect(sandboxAllows(allow, "evil-registry.npmjs.org", 443)).toBe(false);
    expect(sandboxAllows(allow, "api.github.com", 443)).toBe(true);
    expect(sandboxAllows(allow, "github.com", 443)).toBe(true);
    expect(sandboxAllows(allow, "github.com.evil.example", 443)).toBe(false);
    expect(sandboxAllows(allow, "localhost", 8080)).toBe(true);
    expect(sandboxAllows(allow, "localhost", 443)).toBe(false);
    expect(sandboxAllows(allow, "::1", 9000)).toBe(true);
    expect(sandboxAllows(allow, "127.0.0.1", 8080)).toBe(false);
  });
});

describe.runIf(supported)("sandbox option of the local exec", () => {
  let dir: string;
  let workspace: string;
  let ops: Operations;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-sandbox-options-")));
    workspace = join(dir, "ws");
    await mkdir(workspace);
    ops = createLocalOperations({ sandbox: { writable: [workspace] } });
  });
  afterAll(async () => {
    await ops?.dispose?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("reports the sandbox in onSpawn and the result, with the sandbox's own pid", async () => {
    const spawns: ExecSpawn[] = [];
    const { result, text } = await output(ops, "echo $$", { cwd: workspace, onSpawn: (s) => spawns.push(s) });
    expect(text).toBe("2\n");
    expect(spawns[0]).toMatchObject({
      pid: 2,
      pgid: 2,
      sandbox: { mechanism: "bubblewrap", network: "off", seccomp: true },
    });
    expect(spawns[0]?.sandbox?.hostPid).toBeGreaterThan(2);
    expect(result.sandbox).toMatchObject({
      mechanism: "bubblewrap",
      writable: [workspace, "/tmp", "/var/tmp"],
    });
  });

  it("sandbox: false on the call runs without the sandbox", async () => {
    const { result, text } = await output(ops, "echo $$", { cwd: workspace, sandbox: false });
    expect(result.sandbox).toBeUndefined();
    expect(Number(text)).toBeGreaterThan(2);
  });

  it("the call's fields replace the adapter's: network on sees the host's loopback interface", async () => {
    const off = await output(ops, "cat /proc/net/dev | grep -c :", { cwd: workspace });
    const on = await output(ops, "cat /proc/net/dev | grep -c :", {
      cwd: workspace,
      sandbox: { network: "on" },
    });
    expect(off.result.sandbox?.network).toBe("off");
    expect(on.result.sandbox?.network).toBe("on");
    // Network off: only lo. On: the host's interfaces, and the workspace is still writable.
    expect(off.text.trim()).toBe("1");
    const host = readFileSync("/proc/net/dev", "utf8")
      .split("\n")
      .filter((line) => line.includes(":")).length;
    expect(Number(on.text.trim())).toBe(host);
    expect(on.result.sandbox?.writable).toContain(workspace);
  });

  it("a cwd the sandbox hides is refused with permission_denied, nothing run", async () => {
    const error = await ops.exec("true", { shell: "bash", cwd: "/root" }).catch((e: unknown) => e);
    if (process.env.HOME === "/root") {
      // /root is this user's home: shown (read-only), so the command runs.
      expect(isOperationError(error)).toBe(false);
    } else {
      expect(isOperationError(error, "permission_denied")).toBe(true);
    }
  });

  it("a relative writable path is invalid_argument; a sandbox that is not an object too", async () => {
    const relative = await ops
      .exec("true", { shell: "bash", cwd: workspace, sandbox: { writable: ["ws"] } })
      .catch((e: unknown) => e);
    expect(isOperationError(relative, "invalid_argument")).toBe(true);
    const wrong = await ops
      .exec("true", { shell: "bash", cwd: workspace, sandbox: "on" as unknown as false })
      .catch((e: unknown) => e);
    expect(isOperationError(wrong, "invalid_argument")).toBe(true);
    expect(() => createLocalOperations({ sandbox: true as never })).toThrow(
      /sandbox must be an options object/,
    );
  });

  it("asked for where bubblewrap cannot be found: not_supported naming it, never an unsandboxed run", async () => {
    const marker = join(workspace, "ran-unsandboxed");
    const error = await ops
      .exec(`touch '${marker}'`, { shell: "bash", cwd: workspace, env: { PATH: join(dir, "empty-bin") } })
      .catch((e: unknown) => e);
    expect(isOperationError(error, "not_supported")).toBe(true);
    expect((error as Error).message).toMatch(/bubblewrap \(bwrap\) is not installed/);
    expect(existsSync(marker)).toBe(false);
  });

  it("the allow-list proxy reports the hosts it refused", async () => {
    const { result, text } = await output(
      ops,
      "curl -sS --max-time 5 https://example.invalid/ -o /dev/null",
      {
        cwd: workspace,
        sandbox: { network: { allow: ["registry.npmjs.org"] } },
      },
    );
    expect(result.status).toBe("failed");
    expect(text).toMatch(/403/);
    expect(result.sandbox).toMatchObject({
      network: "allow-list",
      allow: ["registry.npmjs.org"],
      blocked: [{ kind: "network", target: "example.invalid:443" }],
    });
  });
});
