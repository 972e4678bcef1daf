import { stat } from "node:fs/promises";
import path from "node:path";
import { isOperationError, type Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { openDockerEnvironment } from "./docker-environment.js";
import type { EnvSpec } from "./env-url.js";
import { environmentFailure } from "./environment-error.js";
import type { EnvironmentOptions, RemoteEnvironment } from "./environment-options.js";
import { openKubernetesEnvironment } from "./kubernetes-environment.js";
import { openSshEnvironment } from "./ssh-environment.js";
import { UsageError } from "./usage-error.js";

export type { EnvironmentOptions, RemoteEnvironment } from "./environment-options.js";

/** An opened environment: its operations and the directory the tools start in. */
export interface OpenEnvironment {
  operations: Operations;
  cwd: string;
  dispose(): Promise<void>;
}

async function openLocal(options: EnvironmentOptions): Promise<OpenEnvironment> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  if (options.cwd !== undefined) {
    const info = await stat(cwd).catch(() => undefined);
    if (!info)
      throw new UsageError(
        `--cwd ${options.cwd}: no such directory${cwd !== options.cwd ? ` (${cwd})` : ""}. Check the path, or create it first.`,
      );
    if (!info.isDirectory()) throw new UsageError(`--cwd ${options.cwd}: not a directory. Name a directory.`);
  }
  const operations = createLocalOperations();
  return { operations, cwd, dispose: async () => operations.dispose?.() };
}

/**
 * The remote working directory: `--cwd` resolved on the remote side, checked to exist before any
 * tool runs (a missing one is a usage error naming it, not a later "file not found").
 */
async function settleRemoteCwd(remote: RemoteEnvironment, options: EnvironmentOptions): Promise<string> {
  const syntax = remote.operations.platform === "win32" ? path.win32 : path.posix;
  const cwd = options.cwd === undefined ? remote.base : syntax.resolve(remote.base, options.cwd);
  const where = remote.operations.id;
  try {
    const info = await remote.operations.stat(cwd);
    if (info.type !== "directory")
      throw new UsageError(
        `The working directory ${cwd} in ${where} is not a directory. Name a directory with --cwd.`,
      );
  } catch (error) {
    if (isOperationError(error, "not_found"))
      throw new UsageError(
        `The working directory ${cwd} does not exist in ${where}. Create it there first, or choose another with --cwd (relative paths start at ${remote.base}).`,
      );
    if (isOperationError(error, "permission_denied"))
      throw new UsageError(
        `The working directory ${cwd} in ${where} is not accessible to the remote user. Choose another with --cwd.`,
      );
    throw error;
  }
  return cwd;
}

/**
 * Opens the environment an {@link EnvSpec} names and settles its working directory. Remote
 * adapters are imported on demand, so a CLI without them still runs locally and says what to
 * install otherwise. Failures to reach or use the environment are thrown as an
 * `EnvironmentError` naming the next step.
 */
export async function openEnvironment(
  spec: EnvSpec,
  options: EnvironmentOptions = {},
): Promise<OpenEnvironment> {
  if (spec.kind === "local") return openLocal(options);
  let remote: RemoteEnvironment | undefined;
  try {
    remote =
      spec.kind === "ssh"
        ? await openSshEnvironment(spec, options)
        : spec.kind === "k8s"
          ? await openKubernetesEnvironment(spec)
          : await openDockerEnvironment(spec, options);
    const cwd = await settleRemoteCwd(remote, options);
    return { operations: remote.operations, cwd, dispose: remote.dispose };
  } catch (error) {
    await remote?.dispose().catch(() => undefined);
    throw environmentFailure(error);
  }
}
