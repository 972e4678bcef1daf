/**
 * The shared output capper (`OUTPUT_CAPPER_SCRIPT` + `OUTPUT_ASSEMBLE_SCRIPT`) run here with GNU
 * coreutils (the head copied by one unbuffered `head -c`) and with busybox only (no `stdbuf`: the
 * head copied in rounds of `dd`): the same file either way, and a prompt shows while the writer
 * waits.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  outputCutMarker,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
} from "../src/index.js";

const BUSYBOX_APPLETS = ["sh", "stat", "dd", "head", "tail", "cat", "rm", "wc", "printf", "echo"];
const LIMIT = 512 * 1024;
const HEAD = outputHeadBytes(LIMIT);
const TAIL = outputTailBytes(LIMIT);
let dir: string;
let busyboxOnly: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-capper-script-"));
  busyboxOnly = join(dir, "busybox-bin");
  await mkdir(busyboxOnly);
  for (const applet of BUSYBOX_APPLETS) await symlink("/bin/busybox", join(busyboxOnly, applet));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const paths = () => ({ gnu: process.env.PATH ?? "/usr/bin:/bin", busybox: busyboxOnly });

function startCapper(path: string, out: string): ChildProcess {
  return spawn("sh", ["-c", OUTPUT_CAPPER_SCRIPT, "capper", out, String(HEAD), String(TAIL), `${out}.tail`], {
    env: { PATH: path },
    stdio: ["pipe", "ignore", "inherit"],
  });
}

function assemble(path: string, out: string): string {
  const run = spawnSync(
    "sh",
    [
      "-c",
      OUTPUT_ASSEMBLE_SCRIPT,
      "assemble",
      out,
      String(TAIL),
      `${out}.tail`,
      outputCutMarkerFormat(LIMIT),
    ],
    { env: { PATH: path }, encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`assemble: ${run.stderr}`);
  return run.stdout.trim();
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

/** `seq 1 count` as text. */
const numbers = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");

describe("the output capper script", () => {
  for (const kind of ["gnu", "busybox"] as const) {
    it(`${kind}: keeps the head, a marker with what was dropped, and the tail`, async () => {
      const out = join(dir, `${kind}-cut.log`);
      const output = numbers(400_000);
      const capper = startCapper(paths()[kind], out);
      const done = exited(capper);
      // In uneven writes, as a command's output comes.
      for (let at = 0; at < output.length; ) {
        const size = 1 + ((at * 7919) % 90_000);
        capper.stdin?.write(output.slice(at, at + size));
        at += size;
      }
      capper.stdin?.end();
      expect(await done).toBe(0);
      const dropped = output.length - HEAD - TAIL;
      expect(assemble(paths()[kind], out)).toBe(
        `${dropped} ${HEAD + outputCutMarker(LIMIT, dropped).length + TAIL}`,
      );
      expect(await readFile(out, "utf8")).toBe(
        output.slice(0, HEAD) + outputCutMarker(LIMIT, dropped) + output.slice(output.length - TAIL),
      );
    });

    it(`${kind}: a prompt is in the file while the writer waits, and a short output is kept whole`, async () => {
      const out = join(dir, `${kind}-prompt.log`);
      const capper = startCapper(paths()[kind], out);
      const done = exited(capper);
      capper.stdin?.write("Continue? [y/N] ");
      await vi.waitFor(
        async () => {
          expect(existsSync(out) ? await readFile(out, "utf8") : "").toBe("Continue? [y/N] ");
        },
        { timeout: 20_000, interval: 20 },
      );
      capper.stdin?.end("y\n");
      expect(await done).toBe(0);
      expect(assemble(paths()[kind], out)).toBe(`- ${"Continue? [y/N] y\n".length}`);
      expect(await readFile(out, "utf8")).toBe("Continue? [y/N] y\n");
    });
  }

  it("copies a large head in one unbuffered head where stdbuf is, in rounds of dd where it is not", {
    timeout: 60_000,
  }, async () => {
    // GNU tools without stdbuf: the rounds of dd.
    const noStdbuf = join(dir, "gnu-no-stdbuf");
    await mkdir(noStdbuf, { recursive: true });
    for (const tool of ["sh", "stat", "head", "cat", "rm", "wc"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
      await symlink(found, join(noStdbuf, tool));
    }
    const rounds: Record<string, number> = {};
    for (const [kind, path] of [
      ["stdbuf", paths().gnu],
      ["no-stdbuf", noStdbuf],
    ] as const) {
      // A dd that counts its runs, first on PATH.
      const bin = join(dir, `${kind}-counting`);
      const log = join(dir, `${kind}-dd.log`);
      await mkdir(bin, { recursive: true });
      for (const tool of kind === "stdbuf" ? ["dd", "stdbuf"] : ["dd"]) {
        await writeFile(join(bin, tool), `#!/bin/sh\necho ${tool} >>'${log}'\nexec /usr/bin/${tool} "$@"\n`);
        await chmod(join(bin, tool), 0o755);
      }
      const out = join(dir, `${kind}-large.log`);
      const head = 4 * 1024 * 1024;
      const capper = spawn(
        "sh",
        ["-c", OUTPUT_CAPPER_SCRIPT, "capper", out, String(head), "0", `${out}.tail`],
        {
          env: { PATH: `${bin}:${path}` },
          stdio: ["pipe", "ignore", "inherit"],
        },
      );
      const done = exited(capper);
      const output = numbers(1_500_000);
      // In small writes a turn apart, as a command prints: a pipe's reads are short then.
      for (let at = 0; at < output.length; at += 8192) {
        if (!capper.stdin?.write(output.slice(at, at + 8192)))
          await new Promise((resolve) => capper.stdin?.once("drain", resolve));
        await new Promise((resolve) => setImmediate(resolve));
      }
      capper.stdin?.end();
      expect(await done).toBe(0);
      expect(await readFile(out, "utf8")).toBe(output.slice(0, head));
      const runs = (await readFile(log, "utf8")).split("\n").filter(Boolean);
      rounds[kind] = runs.filter((run) => run === "dd").length;
      rounds[`${kind} stdbuf`] = runs.filter((run) => run === "stdbuf").length;
    }
    // A round of dd, then the rest in one head.
    expect(rounds).toMatchObject({ stdbuf: 1, "stdbuf stdbuf": 1, "no-stdbuf stdbuf": 0 });
    expect(rounds["no-stdbuf"]).toBeGreaterThan(2);
  });

  it("takes the one-process head only where stdbuf makes head unbuffered", () => {
    const gnu = spawnSync("sh", ["-c", "stdbuf -o0 head -c 1 </dev/null"], { env: { PATH: paths().gnu } });
    const busybox = spawnSync("sh", ["-c", "stdbuf -o0 head -c 1 </dev/null"], {
      env: { PATH: paths().busybox },
    });
    expect(gnu.status).toBe(0);
    expect(busybox.status).not.toBe(0);
  });
});
