/**
 * The environment a tools conformance section works in: a fresh directory in the adapter's
 * environment, a context rooted there, and helpers that build fixtures through `Operations`.
 */
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import {
  type AnyToolDefinition,
  type ToolSession,
  withResolve,
  wrapToolDefinition,
} from "@tackle/extensions";

/** Makes the context of a workspace rooted at `cwd` (the suite passes a fresh directory). */
export type MakeToolsContext = (cwd: string) => ToolSession | Promise<ToolSession>;

/** A fixture entry: file text or bytes, or a symbolic link. */
export type FixtureEntry = string | Uint8Array | { symlink: string };

/** What each conformance section receives from `getEnv()`. */
export interface ToolsConformanceEnv {
  /** The suite's fresh root directory (absolute, in the environment). */
  root: string;
  /** A context whose cwd and only workspace root is `root`. */
  ctx: ToolSession;
  /** `root` joined with POSIX-style relative parts, in the environment's syntax. */
  path(...parts: string[]): string;
  /** Another context (e.g. another cwd or policy) from the adapter's factory. */
  makeContext: MakeToolsContext;
  /** Runs a definition with `ctx` (or `options.ctx`) the way every caller does: wrap + invokeTool. */
  run(
    definition: AnyToolDefinition,
    args: unknown,
    options?: { ctx?: ToolSession; signal?: AbortSignal },
  ): Promise<ToolOutcome>;
  /** A new empty directory under `root`, returned as an absolute path. */
  freshDir(name: string): Promise<string>;
  /** Creates files and links under `dir` (relative POSIX paths, parents created). */
  fixture(dir: string, entries: Record<string, FixtureEntry>): Promise<void>;
}

/** Joined text parts of an outcome. */
export function textOf(outcome: ToolOutcome): string {
  return outcome.content
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

let counter = 0;

/** Builds the env of one suite run (called from `beforeAll`). */
export async function createConformanceEnv(
  makeContext: MakeToolsContext,
  baseDir: string,
): Promise<ToolsConformanceEnv> {
  const probe = await makeContext(baseDir);
  const ops = probe.operations;
  const sep = ops.platform === "win32" ? "\\" : "/";
  const join = (base: string, parts: string[]) =>
    [base.replace(/[\\/]+$/, ""), ...parts.flatMap((part) => part.split("/")).filter((p) => p !== "")].join(
      sep,
    );
  const root = join(baseDir, [
    `tackle-tools-conformance-${Date.now().toString(36)}-${process.pid}-${counter++}`,
  ]);
  await ops.mkdir(root, { recursive: true });
  const real = await ops.realpath(root);
  const ctx = await makeContext(real);
  const env: ToolsConformanceEnv = {
    root: real,
    ctx,
    path: (...parts) => join(real, parts),
    makeContext,
    async run(definition, args, options = {}) {
      const useCtx = options.ctx ?? ctx;
      const tool = wrapToolDefinition(definition, () => useCtx);
      return invokeTool(tool, args, options.signal ? { signal: options.signal } : {});
    },
    async freshDir(name) {
      const dir = join(real, [`${name}-${counter++}`]);
      await ops.mkdir(dir, { recursive: true });
      return dir;
    },
    async fixture(dir, entries) {
      for (const [rel, entry] of Object.entries(entries)) {
        const target = join(dir, [rel]);
        const parent = target.slice(0, target.lastIndexOf(sep));
        await ops.mkdir(parent, { recursive: true });
        if (typeof entry === "object" && "symlink" in entry) await ops.symlink(entry.symlink, target);
        else await ops.writeFile(target, entry);
      }
    },
  };
  return env;
}

/** Removes the suite's root. */
export async function disposeConformanceEnv(env: ToolsConformanceEnv): Promise<void> {
  await env.ctx.operations.remove(env.root, { recursive: true, force: true });
}

/**
 * `ctx` with a workspace policy that reports its first check: `checked` resolves once a tool has
 * passed the policy, so a test can change the file system between that check and the write.
 */
export function withPolicyProbe(ctx: ToolSession): { ctx: ToolSession; checked: Promise<void> } {
  const policy = ctx.workspace;
  let markChecked!: () => void;
  const checked = new Promise<void>((resolve) => {
    markChecked = resolve;
  });
  const workspace = withResolve(policy, async (input, access, options) => {
    const resolved = await policy.resolve(input, access, options);
    markChecked();
    return resolved;
  });
  return { ctx: { ...ctx, workspace }, checked };
}

/** What {@link callWithDirectorySwapped} does. */
export interface DirectorySwap {
  /** Context of the workspace the call runs in. */
  ctx: ToolSession;
  /** Directory (absolute) replaced by a link after the policy check; it is renamed to `<dir>-before`. */
  dir: string;
  /** Where the link points (outside the workspace). */
  linkTo: string;
  /** The file the call mutates (absolute): its place in the mutation queue is held meanwhile. */
  file: string;
  /** The tool call, on the context it is given. */
  call(ctx: ToolSession): Promise<ToolOutcome>;
}

/**
 * Runs a mutating tool call and swaps `dir` for a link between the call's policy check and its
 * write (the file's place in the mutation queue is held so the call waits there): the link race
 * the write-time re-check must catch.
 */
export async function callWithDirectorySwapped(swap: DirectorySwap): Promise<ToolOutcome> {
  const ops = swap.ctx.operations;
  const { ctx, checked } = withPolicyProbe(swap.ctx);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = ctx.mutations.withFileMutation(swap.file, () => gate);
  const pending = swap.call(ctx);
  await checked;
  await ops.rename(swap.dir, `${swap.dir}-before`);
  await ops.symlink(swap.linkTo, swap.dir);
  release();
  await held;
  return pending;
}
