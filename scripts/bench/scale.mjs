// The scale benchmark's session cycle, shared by the local, SSH and Docker runs: N sessions at
// once, each with its own tool context and its own copy of a small workspace, each doing
// grep -> read -> edit -> bash CYCLES times. Measures calls per second, p50/p99 latency per tool,
// peak RSS and open file descriptors of this process while they run, and errors (must be 0).
// Processes left behind are counted by the caller after disposing (see `descendantsOf`).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { percentile } from "./stats.mjs";

/** Files of the small workspace every session gets a copy of (relative path -> text). */
export function scaleWorkspaceFiles() {
  const files = { "README.md": "# demo\n\nA small workspace for the scale benchmark.\n" };
  for (let i = 0; i < 20; i++) {
    const lines = [];
    for (let l = 0; l < 60; l++) lines.push(`export const item${i}_${l} = ${l}; // filler line ${l}`);
    if (i === 7) lines.push("export let counter = 0; // needle");
    files[`src/module${String(i).padStart(2, "0")}.ts`] = `${lines.join("\n")}\n`;
  }
  files[".gitignore"] = "dist/\n";
  files["dist/ignored.js"] = "// needle (ignored)\n";
  return files;
}

/** The tools one cycle calls, in order. */
export const CYCLE_TOOLS = ["grep", "read", "edit", "bash"];

/**
 * Runs `cycles` cycles in every session at once.
 *
 * @param {{ sessions: { tools: Record<string, unknown> }[], cycles: number,
 *   invoke: (tool: unknown, args: unknown) => Promise<{ isError: boolean, content: unknown }> }} options
 * @returns {Promise<{ calls: number, errors: string[], elapsedMs: number, callsPerSecond: number,
 *   latency: Record<string, { p50: number, p99: number }>, peakRssMb: number, peakFds: number }>}
 */
export async function runSessionCycles({ sessions, cycles, invoke }) {
  const latencies = Object.fromEntries(CYCLE_TOOLS.map((name) => [name, []]));
  const errors = [];
  let peakRss = process.memoryUsage().rss;
  let peakFds = openFds();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    peakFds = Math.max(peakFds, openFds());
  }, 20);
  const call = async (session, name, args) => {
    const start = performance.now();
    const outcome = await invoke(session.tools[name], args);
    latencies[name].push(performance.now() - start);
    if (outcome.isError) errors.push(`${name}: ${JSON.stringify(outcome.content).slice(0, 300)}`);
    return outcome;
  };
  const start = performance.now();
  try {
    await Promise.all(
      sessions.map(async (session) => {
        for (let k = 0; k < cycles; k++) {
          await call(session, "grep", { pattern: "needle" });
          await call(session, "read", { path: "src/module07.ts", offset: 55 });
          await call(session, "edit", {
            path: "src/module07.ts",
            edits: [{ oldText: `counter = ${k};`, newText: `counter = ${k + 1};` }],
          });
          await call(session, "bash", { command: "grep -c counter src/module07.ts && ls src | wc -l" });
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const elapsedMs = performance.now() - start;
  const calls = sessions.length * cycles * CYCLE_TOOLS.length;
  const latency = {};
  for (const [name, values] of Object.entries(latencies)) {
    latency[name] = { p50: percentile(values, 50), p99: percentile(values, 99) };
  }
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  return {
    calls,
    errors,
    elapsedMs,
    callsPerSecond: calls / (elapsedMs / 1000),
    latency,
    peakRssMb: peakRss / 1024 / 1024,
    peakFds,
  };
}

/** Open file descriptors of this process (Linux /proc; 0 elsewhere). */
export function openFds() {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return 0;
  }
}

/** What each open descriptor of this process is (for a leak report). */
export function describeFds() {
  try {
    return readdirSync("/proc/self/fd").map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "?";
      }
    });
  } catch {
    return [];
  }
}

/**
 * Every living descendant of `pid` (Linux /proc), zombies excluded, with its process group;
 * `ignoreGroups` leaves out processes of those groups (a test harness's own watcher).
 *
 * @returns {{ pid: number, pgid: number, command: string }[]}
 */
export function descendantsOf(pid, ignoreGroups = []) {
  const children = new Map();
  const info = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") continue;
    const parent = Number(fields[1]);
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    info.set(Number(entry), { pid: Number(entry), pgid: Number(fields[2]), command });
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(Number(entry));
  }
  const out = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()) ?? []) {
      const found = info.get(child);
      if (!ignoreGroups.includes(found.pgid)) out.push(found);
      stack.push(child);
    }
  }
  return out;
}

/** Polls `check` every 50 ms until it returns true or `ms` passed; returns its last answer. */
export async function waitFor(check, ms = 5000) {
  const until = performance.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Records one scale run (N sessions) on `report`: calls/s, p50/p99 per tool, peak RSS, peak open
 * fds, processes left (target 0) and errors (target 0), as JSON lines, and prints one summary
 * line. `extra` adds fields to every record's params.
 */
export function reportScaleRun(report, caseName, n, result, left, extra = {}) {
  const params = { n, ...extra };
  const quiet = { quiet: true };
  const base = { case: caseName, params, stat: "single" };
  report.measure({ ...base, metric: "calls-per-s", unit: "1/s", value: result.callsPerSecond }, quiet);
  const perTool = [];
  for (const [tool, { p50, p99 }] of Object.entries(result.latency)) {
    report.measure({ ...base, params: { ...params, tool }, metric: "p50", unit: "ms", value: p50 }, quiet);
    report.measure({ ...base, params: { ...params, tool }, metric: "p99", unit: "ms", value: p99 }, quiet);
    perTool.push(`${tool} ${p50.toFixed(0)}/${p99.toFixed(0)}`);
  }
  report.measure({ ...base, metric: "rss-peak", unit: "MB", value: result.peakRssMb }, quiet);
  report.measure({ ...base, metric: "open-fds-peak", unit: "count", value: result.peakFds }, quiet);
  const zero = { op: "<=", value: 0, of: "value" };
  const leftRecord = report.measure(
    { ...base, metric: "processes-left", unit: "count", value: left, target: zero },
    quiet,
  );
  const errorRecord = report.measure(
    { ...base, metric: "errors", unit: "count", value: result.errors.length, target: zero },
    quiet,
  );
  const extras = Object.entries(extra)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  report.note(
    `${caseName} N=${String(n).padStart(3)}${extras ? ` ${extras}` : ""}: ${result.callsPerSecond.toFixed(1).padStart(6)} calls/s; ` +
      `p50/p99 ms ${perTool.join(", ")}; peak RSS ${result.peakRssMb.toFixed(0)} MB; peak fds ${result.peakFds}; ` +
      `processes left ${left}${leftRecord.pass ? "" : " FAIL"}; errors ${result.errors.length}${errorRecord.pass ? "" : " FAIL"}`,
  );
  for (const error of result.errors.slice(0, 3)) report.note(`  error: ${error}`);
}

/**
 * Session counts for a scale run: SCALE_SESSIONS (comma-separated) when set, else `small`, plus
 * 128 with `--big` (`pnpm bench -- --big`). The default stays small so `pnpm bench` is quick and
 * does not load a shared machine with hundreds of sessions; the big case is asked for.
 */
export function scaleSessions(small, argv = process.argv.slice(2)) {
  if (process.env.SCALE_SESSIONS) return process.env.SCALE_SESSIONS.split(",").map(Number);
  return argv.includes("--big") ? [...small, 128] : small;
}
