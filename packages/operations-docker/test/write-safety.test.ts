import { existsSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, watch } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOperationError, isTempFileName, parseTempFileName } from "@tackle/operations";
import { listDiskTree, swapDuringWrite } from "@tackle/operations/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { testEngine } from "./engine.js";
import { startTestContainer } from "./session.js";

/**
 * Writes in a container whose directories change under them. The container works in a host
 * directory bind-mounted at /h, so the test sees the container's files on this machine (and
 * an inotify event the moment a temp file appears) and can swap directories there mid-write.
 */
let host: string;
const sessions: SessionContainer[] = [];

beforeAll(async () => {
  host = await mkdtemp(join(tmpdir(), "tackle-docker-h-"));
});

afterAll(async () => {
  for (const session of sessions.splice(0)) await session.dispose();
  await rm(host, { recursive: true, force: true });
});

async function container(residentShells: boolean): Promise<SessionContainer> {
  const session = await startTestContainer({ binds: [`${host}:/h`], residentShells });
  sessions.push(session);
  return session;
}

let counter = 0;
/** A workspace `ws` with a directory `sub`, and an `out` beside it, under /h. */
async function places(): Promise<{ name: string; ws: string; out: string }> {
  const name = `case-${++counter}`;
  await mkdir(join(host, name, "ws", "sub"), { recursive: true });
  await mkdir(join(host, name, "out"));
  return { name, ws: join(host, name, "ws"), out: join(host, name, "out") };
}

const big = () => new Uint8Array(64 * 1024 * 1024).fill(1);

describe.each([true, false])("writes in a container (resident shells: %s)", (resident) => {
  let ops: SessionContainer;
  beforeAll(async () => {
    ops = await container(resident);
  });

  it("the directory replaced by a link after the temp file was made: the write lands in the directory it started in, no temp file left", async () => {
    const { name, ws, out } = await places();
    const sub = join(ws, "sub");
    const { error, swappedMidWrite } = await swapDuringWrite(
      sub,
      () => ops.writeFile(`/h/${name}/ws/sub/big.bin`, big()),
      () => {
        renameSync(sub, `${sub}.away`);
        // The link as the container resolves it.
        symlinkSync(`/h/${name}/out`, sub);
        return `${sub}.away`;
      },
    );
    expect(swappedMidWrite).toBe(true);
    expect(error).toBeUndefined();
    expect(await listDiskTree(`${sub}.away`)).toEqual(["big.bin"]);
    expect(await listDiskTree(out)).toEqual([]);
  }, 60_000);

  it("with `within`: the directory moved out of the root after the temp file was made is outside_root, nothing left outside", async () => {
    const { name, ws, out } = await places();
    const { error, swappedMidWrite } = await swapDuringWrite(
      join(ws, "sub"),
      () => ops.writeFile(`/h/${name}/ws/sub/big.bin`, big(), { within: `/h/${name}/ws` }),
      () => {
        renameSync(join(ws, "sub"), join(out, "sub"));
        return join(out, "sub");
      },
    );
    expect(swappedMidWrite).toBe(true);
    expect(isOperationError(error, "outside_root"), String(error)).toBe(true);
    expect(await listDiskTree(out)).toEqual(["sub"]);
    expect(await listDiskTree(ws)).toEqual([]);
  }, 60_000);

  it("with `within`: a directory that is a link to outside is outside_root, and nothing is created", async () => {
    const { name, out } = await places();
    await ops.symlink(`/h/${name}/out`, `/h/${name}/ws/link`);
    const error = await ops
      .writeFile(`/h/${name}/ws/link/f.txt`, "x", { within: `/h/${name}/ws` })
      .catch((caught: unknown) => caught);
    expect(isOperationError(error, "outside_root")).toBe(true);
    expect(await listDiskTree(out)).toEqual([]);
  });

  it("readFile, openRead and writeFile refuse a FIFO with special_file, and the next call works", async () => {
    const { name } = await places();
    const made = await ops.exec("mkfifo pipe", { shell: "sh", cwd: `/h/${name}/ws` });
    expect(made.status).toBe("completed");
    const fifo = `/h/${name}/ws/pipe`;
    const codeOf = (action: () => Promise<unknown>) =>
      action().then(
        () => "ok",
        (error: unknown) => (isOperationError(error) ? error.code : String(error)),
      );
    expect(await codeOf(() => ops.readFile(fifo))).toBe("special_file");
    expect(
      await codeOf(async () => {
        for await (const _ of ops.openRead(fifo)) break;
      }),
    ).toBe("special_file");
    expect(await codeOf(() => ops.writeFile(fifo, "x"))).toBe("special_file");
    expect(await codeOf(() => ops.readFile("/dev/null"))).toBe("special_file");
    await ops.writeFile(`/h/${name}/ws/after.txt`, "ok");
    expect(new TextDecoder().decode(await ops.readFile(`/h/${name}/ws/after.txt`))).toBe("ok");
  });

  it("a write script killed mid-write leaves its temp file; the next write to the directory sweeps it", async () => {
    const { name, ws } = await places();
    const dir = join(ws, "sub");
    const init = (await testEngine().getContainer(ops.containerId).inspect()).State.Pid;
    // The moment the temp file appears, SIGKILL the shell its name records as the writer (a
    // pid of the container's own process table) with everything it started.
    let killed: number[] = [];
    let recorded: { start: string | undefined; actual: string | undefined } | undefined;
    const { error } = await swapDuringWrite(
      dir,
      () => ops.writeFile(`/h/${name}/ws/sub/big.bin`, big()),
      (temp) => {
        const owner = parseTempFileName(temp)?.owner;
        const writer = hostPidOf(init, owner?.pid ?? -1);
        // The name records the shell's own start time (field 22 of its stat), not another field:
        // a live writer's temp file is only kept by other writers' sweeps when that matches.
        recorded = { start: owner?.start, actual: statFields(writer)[19] };
        killed = treeOf(writer);
        for (const pid of killed) {
          try {
            process.kill(pid, "SIGKILL");
          } catch (error) {
            // A process of the tree may end on its own between the listing and the kill.
            if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
          }
        }
        return dir;
      },
    );
    expect(error).toBeDefined();
    expect(recorded?.start).toBe(recorded?.actual);
    expect(killed.length).toBeGreaterThan(0);
    const left = (await readdir(dir)).filter(isTempFileName);
    expect(left).toHaveLength(1);
    await ops.writeFile(`/h/${name}/ws/sub/next.txt`, "next");
    expect((await readdir(dir)).filter(isTempFileName)).toEqual([]);
  }, 60_000);
});

/** Fields of /proc/PID/stat after the command name, or [] when the process is gone. */
function statFields(pid: number | string): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return [];
  }
}

/** Host pid of pid `inner` of the container whose init is host pid `init` (from NSpid). */
function hostPidOf(init: number, inner: number): number {
  const namespace = readlinkSync(`/proc/${init}/ns/pid`);
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readlinkSync(`/proc/${pid}/ns/pid`) !== namespace) continue;
      const nspid = readFileSync(`/proc/${pid}/status`, "utf8")
        .match(/^NSpid:\s+(.*)$/m)?.[1]
        ?.split(/\s+/);
      if (Number(nspid?.at(-1)) === inner) return Number(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`no process ${inner} in the container`);
}

/** `pid` and every process below it. */
function treeOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(entry)[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}
