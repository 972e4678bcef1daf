import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSandboxTestEnv,
  type SandboxTestEnv,
  startCountingServer,
} from "../src/testing/sandbox-env.js";
import { localSandboxOperations } from "./support/local-sandbox-operations.js";

// Ordinary developer commands still work in the sandbox (network off unless said), each run
// through the bash tool and checked by its output and, for writes, from outside.

const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

describe.runIf(supported)("developer commands in the sandbox (bash tool)", () => {
  let env: SandboxTestEnv;
  beforeAll(async () => {
    env = await createSandboxTestEnv(localSandboxOperations);
  });
  afterAll(async () => {
    await env?.dispose();
  });

  /** Runs `command` sandboxed; it must complete, in the sandbox, and print `expected`. */
  const works = async (command: string, expected: string | RegExp) => {
    const { outcome, text, sandboxed } = await env.bash(command);
    expect(sandboxed, text).toBe("bubblewrap");
    expect(outcome.isError, text).toBe(false);
    if (typeof expected === "string") expect(text).toContain(expected);
    else expect(text).toMatch(expected);
  };

  it("git init, add and commit in the workspace", async () => {
    await works(
      "git init -q repo && cd repo && echo hi > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --format=%s",
      "first",
    );
    expect(existsSync(join(env.workspace, "repo", ".git", "HEAD"))).toBe(true);
  });
  it("node runs a script and writes a file in the workspace", async () => {
    await works(
      "node -e \"require('fs').writeFileSync('out.json', JSON.stringify({ n: 6 * 7 })); console.log('node-ok')\"",
      "node-ok",
    );
    expect(JSON.parse(readFileSync(join(env.workspace, "out.json"), "utf8"))).toEqual({ n: 42 });
  });
  it("python3 runs", async () => {
    await works("python3 -c 'print(6 * 7)'", "42");
  });
  it("pipes and sort", async () => {
    await works("printf 'b\\na\\nc\\n' | sort | head -n 1 | tr a A", "A");
  });
  it("mktemp gives a private temp file that works", async () => {
    await works(
      'f=$(mktemp) && echo temp-ok > "$f" && cat "$f" && case "$f" in /tmp/*) echo in-tmp;; esac',
      /temp-ok\s+in-tmp/,
    );
  });
  it("reads the system: /usr, /etc", async () => {
    await works("ls /usr/bin | grep -cx env && head -n 1 /etc/os-release", /1\s+\S+/);
  });
  it("makes directories and files in the workspace, seen from outside", async () => {
    await works("mkdir -p src/deep && echo content > src/deep/file.txt && cat src/deep/file.txt", "content");
    expect(readFileSync(join(env.workspace, "src", "deep", "file.txt"), "utf8")).toBe("content\n");
  });
  it("reads the home directory (not its secrets)", async () => {
    await works('test -d "$HOME" && ls -a ~ | grep -cx .ssh', "1");
  });
  it("tar through the private /tmp", async () => {
    await works(
      "mkdir -p pkg && echo x > pkg/x && tar czf /tmp/p.tgz pkg && tar tzf /tmp/p.tgz | sort | head -n 1",
      "pkg/",
    );
  });
  it("a background child of the command and wait", async () => {
    await works("(sleep 0.1; echo child-done) & wait; echo parent-done", /child-done\s+parent-done/);
  });
  it("shell arithmetic, env and exit codes", async () => {
    await works(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      'sh -c "exit 3"; echo "status=$? sum=$((2 + 3)) path=${PATH:+set}"',
      "status=3 sum=5 path=set",
    );
  });
  it("an allowed host is reachable through the proxy (curl)", async () => {
    const server = await startCountingServer();
    try {
      const { outcome, text, sandboxed } = await env.bash(
        `curl -sS --max-time 10 --noproxy '' http://127.0.0.1:${server.port}/`,
        {
          network: { allow: [`127.0.0.1:${server.port}`] },
        },
      );
      expect(sandboxed).toBe("bubblewrap");
      expect(outcome.isError, text).toBe(false);
      expect(text).toContain("hello");
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
