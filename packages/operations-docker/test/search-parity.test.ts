import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FilesRequest, GrepRequest, Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/** A tree with ignore rules, a nested repository, hidden and unicode names, CRLF and binary. */
const TREE: Record<string, string> = {
  ".gitignore": "*.log\nout/\n",
  "app.log": "token in a log\n",
  "out/gen.txt": "token generated\n",
  "src/a.ts": "const token = 1;\nconst other = 2;\nexport { token };\n",
  "src/b.js": "// Token with capital\n",
  "src/deep/c.ts": "no match here\ntoken deep\n",
  ".config/x.yml": "token: hidden\n",
  "vendor/.gitignore": "skip.txt\n",
  "vendor/.git/HEAD": "token in .git\n",
  "vendor/skip.txt": "token skipped by the nested repo\n",
  "vendor/keep.txt": "token kept\r\nsecond line\r\n",
  "naïve dir/ünï.md": "token unicode\n",
};

let docker: SessionContainer | undefined;
let local: Operations | undefined;
let localRoot = "";
const dockerRoot = "/parity";

async function build(ops: Operations, root: string): Promise<void> {
  await ops.mkdir(root, { recursive: true });
  for (const [relative, content] of Object.entries(TREE)) {
    const path = `${root}/${relative}`;
    await ops.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await ops.writeFile(path, content);
  }
}

beforeAll(async () => {
  docker = await startTestContainer();
  local = createLocalOperations();
  localRoot = await mkdtemp(join(tmpdir(), "tackle-parity-"));
  await Promise.all([build(docker, dockerRoot), build(local, localRoot)]);
});

afterAll(async () => {
  await docker?.dispose();
  await local?.dispose?.();
  if (localRoot) await rm(localRoot, { recursive: true, force: true });
});

async function both<T>(run: (ops: Operations, root: string) => AsyncIterable<T>): Promise<[T[], T[]]> {
  const collect = async (ops: Operations | undefined, root: string) => {
    if (!ops) throw new Error("setup failed: see the beforeAll error");
    const items: T[] = [];
    for await (const item of run(ops, root)) items.push(item);
    return items;
  };
  return Promise.all([collect(docker, dockerRoot), collect(local, localRoot)]);
}

const order = (items: unknown[]) => items.map((item) => JSON.stringify(item)).sort();

describe("search in the container equals local search on the same tree", () => {
  const greps: Omit<GrepRequest, "path">[] = [
    { pattern: "token" },
    { pattern: "token", includeIgnored: true },
    { pattern: "TOKEN", ignoreCase: true },
    { pattern: "token:", literal: true },
    { pattern: "token", glob: "*.ts" },
    { pattern: "token", glob: "src/**", context: 1 },
    { pattern: "token", maxMatches: 3 },
  ];
  for (const request of greps) {
    it(`grep ${JSON.stringify(request)}`, async () => {
      const [inContainer, onHost] = await both((ops, root) => {
        if (!ops.search) throw new Error(`${ops.id} has no search`);
        return ops.search.grep({ ...request, path: root });
      });
      if (request.maxMatches) expect(inContainer.length).toBe(onHost.length);
      else expect(order(inContainer)).toEqual(order(onHost));
      expect(onHost.length).toBeGreaterThan(0);
    });
  }

  const listings: Omit<FilesRequest, "path">[] = [
    {},
    { includeIgnored: true },
    { glob: "*.md" },
    { glob: "src/*.ts" },
  ];
  for (const request of listings) {
    it(`files ${JSON.stringify(request)}`, async () => {
      const [inContainer, onHost] = await both((ops, root) => {
        if (!ops.search) throw new Error(`${ops.id} has no search`);
        return ops.search.files({ ...request, path: root });
      });
      expect(order(inContainer)).toEqual(order(onHost));
      expect(onHost.length).toBeGreaterThan(0);
    });
  }
});
