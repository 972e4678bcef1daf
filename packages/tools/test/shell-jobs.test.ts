import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRegistry } from "../src/shell/jobs.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createJobsToolDefinition } from "../src/tools/jobs.js";
import {
  alive,
  createShellTestEnv,
  endPid,
  readPidFile,
  type ShellTestEnv,
  textOf,
} from "./shell-helpers.js";

let env: ShellTestEnv;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
const pids: number[] = [];
const bash = createBashToolDefinition({ killGraceMs: 500 });
const jobsTool = createJobsToolDefinition();

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  for (const pid of pids) endPid(pid);
  await env.dispose();
});

describe("background jobs", () => {
  it("starts, waits for readiness, lists, tails by offset and kills a job", async () => {
    const started = await env.run(bash, {
      command: "echo $$ > job.pid; for i in 1 2 3; do echo line-$i; done; echo server ready; exec sleep 100",
      background: true,
      readyPattern: "server ready",
    });
    expect(started.isError).toBe(false);
    const job = (started.details as ShellToolDetails).job;
    expect(job?.id).toMatch(/^job-/);
    expect(textOf(started)).toContain("It is ready.");
    const pid = await readPidFile(join(env.workspace, "job.pid"));
    pids.push(pid);
    expect(alive(pid)).toBe(true);

    const list = await env.run(jobsTool, { action: "list" });
    expect(textOf(list)).toContain(`${job?.id} running`);

    const first = await env.run(jobsTool, { action: "tail", id: job?.id, offset: 0 });
    expect(textOf(first)).toContain("line-1\nline-2\nline-3\nserver ready");
    const next = (first.details as { nextOffset: number }).nextOffset;
    const rest = await env.run(jobsTool, { action: "tail", id: job?.id, offset: next });
    expect(textOf(rest)).toContain("(no output in this range)");

    const killed = await env.run(jobsTool, { action: "kill", id: job?.id });
    expect(textOf(killed)).toContain("killed");
    expect(alive(pid)).toBe(false);
    const status = await env.run(jobsTool, { action: "status", id: job?.id });
    expect(textOf(status)).toContain(`${job?.id} killed`);
  });

  it("pages a long log by whole lines within the line limit", async () => {
    const started = await env.run(bash, { command: "seq 1 30000", background: true });
    const id = (started.details as ShellToolDetails).job?.id as string;
    await env.jobs.wait(id);
    const end = await env.jobs.tail(id);
    expect(end?.text.endsWith("29999\n30000\n")).toBe(true);
    // The view of the end starts at a whole line and holds at most DEFAULTS.maxLines of them.
    const lines = end?.text.split("\n").filter((l) => l.length > 0) ?? [];
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe("28001");
    expect(end?.nextOffset).toBe(end?.size);
    const first = await env.jobs.tail(id, { offset: 0 });
    expect(first?.text.startsWith("1\n2\n")).toBe(true);
    expect(first?.text.split("\n").filter((l) => l.length > 0)).toHaveLength(2000);
    const next = await env.jobs.tail(id, { offset: first?.nextOffset as number });
    expect(next?.text.startsWith("2001\n")).toBe(true);
  });

  it("ends a page cut by bytes at its last whole line, so a secret is never split across pages", async () => {
    const token = `ghp_${"Q7xK2mL9rT".repeat(4)}`;
    const started = await env.run(bash, {
      command: `for i in 1 2 3 4 5 6; do echo "line $i GITHUB_TOKEN=${token}"; done`,
      background: true,
    });
    const id = (started.details as ShellToolDetails).job?.id as string;
    await env.jobs.wait(id);
    let offset = 0;
    const pages: string[] = [];
    for (let page = await env.jobs.tail(id, { offset, maxBytes: 150 }); page && offset < page.size; ) {
      pages.push(page.text);
      offset = page.nextOffset;
      page = await env.jobs.tail(id, { offset, maxBytes: 150 });
    }
    expect(pages.length).toBeGreaterThan(1);
    for (const text of pages) {
      expect(text.endsWith("\n")).toBe(true);
      expect(text).not.toContain("Q7xK2mL9rT");
    }
    expect(pages.join("").match(/\[REDACTED:github-token\]/g)).toHaveLength(6);
  });

  it("reports a job that ended before it was ready", async () => {
    const outcome = await env.run(bash, {
      command: "echo boom; exit 4",
      background: true,
      readyPattern: "never",
    });
    expect(outcome.isError).toBe(true);
    expect(textOf(outcome)).toContain("ended before it was ready");
    expect(textOf(outcome)).toContain("exit code 4");
  });

  it("waits for a port to open, and gives up after the timeout when it does not", async () => {
    const port = await freePort();
    const outcome = await env.run(bash, {
      command: `echo $$ > srv.pid; exec python3 -m http.server ${port} --bind 127.0.0.1`,
      background: true,
      readyPort: port,
    });
    expect(textOf(outcome)).toContain("It is ready.");
    pids.push(await readPidFile(join(env.workspace, "srv.pid")));
    await env.jobs.kill((outcome.details as ShellToolDetails).job?.id as string);

    const never = await env.run(bash, {
      command: "exec sleep 100",
      background: true,
      readyPort: port,
      timeout: 1,
    });
    expect(textOf(never)).toContain("not ready after 1.0 s");
    await env.jobs.kill((never.details as ShellToolDetails).job?.id as string);
  });

  it("ends jobs on dispose unless marked keepAlive", async () => {
    const ops = createLocalOperations();
    const registry = createJobRegistry({
      operations: ops,
      sessionId: "d",
      stateDir: join(env.dir, "jobs-dispose"),
      killGraceMs: 300,
    });
    await registry.start({
      shell: "bash",
      command: "echo $$ > short.pid; exec sleep 100",
      cwd: env.workspace,
    });
    const kept = await registry.start({
      shell: "bash",
      command: "echo $$ > kept.pid; exec sleep 100",
      cwd: env.workspace,
      keepAlive: true,
    });
    const shortPid = await readPidFile(join(env.workspace, "short.pid"));
    const keptPid = await readPidFile(join(env.workspace, "kept.pid"));
    pids.push(shortPid, keptPid);
    await registry.dispose();
    expect(alive(shortPid)).toBe(false);
    expect(alive(keptPid)).toBe(true);
    await registry.kill(kept.id);
    expect(alive(keptPid)).toBe(false);
  });

  it("lists the jobs of a host process that died as orphaned, and can still end them", async () => {
    const stateDir = join(env.dir, "jobs-restart");
    const script = fileURLToPath(new URL("./fixtures/start-job-and-exit.mjs", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, stateDir, env.workspace], {
      timeout: 60_000,
    });
    const { id, ready } = JSON.parse(stdout.trim().split("\n").pop() as string) as {
      id: string;
      ready: string;
    };
    expect(ready).toBe("ready");

    const second = createJobRegistry({
      operations: createLocalOperations(),
      sessionId: "second-host",
      stateDir,
      killGraceMs: 300,
    });
    const listed = (await second.list()).find((j) => j.id === id);
    expect(listed?.status).toBe("orphaned");
    expect(listed?.sessionId).toBe("first-host");
    const killed = await second.kill(id);
    pids.push(...(killed?.hunt?.found ?? []));
    expect(killed?.hunt?.found.length).toBeGreaterThan(0);
    expect(killed?.record.status).toBe("killed");
    for (const pid of killed?.hunt?.found ?? []) expect(alive(pid)).toBe(false);
    expect((await second.get(id))?.status).toBe("killed");
  });
});
