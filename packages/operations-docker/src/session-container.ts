import { randomBytes } from "node:crypto";
import { OperationError, type Operations, type SandboxOptions } from "@tackle/operations";
import { checkAdapterOptions, type OptionSpec } from "@tackle/operations/adapter";
import { sandboxHostConfig } from "./container-sandbox.js";
import {
  createDockerOperations,
  DOCKER_OPTION_SPEC,
  type DockerOperations,
  type DockerOperationsOptions,
} from "./docker-operations.js";
import { connectEngine } from "./engine-connection.js";
import { DockerOperationError, engineError } from "./engine-error.js";

/**
 * Options of {@link startSessionContainer}: the adapter's options, with an image instead of a
 * container.
 */
export interface SessionContainerOptions extends Omit<DockerOperationsOptions, "container"> {
  /** A local image (never pulled: a missing image is an error). */
  image: string;
  /** Container name (default `tackle-session-<random>`). */
  name?: string;
  /** `HostConfig.NetworkMode` (default `"none"`: no network at all). */
  network?: string;
  /** Bind mounts, `host:container[:ro]`, e.g. to work on a host checkout. */
  binds?: string[];
  /** Extra environment entries `KEY=value`. */
  env?: string[];
  /** Run the engine's init (tini) as pid 1 so orphans are reaped (default true). */
  init?: boolean;
  /**
   * Create the container as the sandbox (and sandbox every call in it, see
   * `DockerOperationsOptions.sandbox`): network mode `none` unless `network: "on"` (then
   * `network`, default `bridge`), a read-only root file system, a tmpfs for `/tmp`, `/var/tmp`
   * and each `writable` path no writable bind covers (its contents go with the container), no
   * capabilities, no new privileges. An allow list is refused (`not_supported`): there is no
   * filtering proxy in containers. `readable` and `deny` need nothing: the container sees only
   * the host paths `binds` mounts.
   */
  sandbox?: SandboxOptions;
}

/** `Operations` on a throwaway container; `dispose()` removes the container. */
export interface SessionContainer extends Operations {
  /** Id of the container the session created. */
  readonly containerId: string;
  /** Stops and removes the container. Idempotent. */
  dispose(): Promise<void>;
}

const isStrings = (value: unknown): boolean =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

const { container: _container, ...ADAPTER_OPTION_SPEC } = DOCKER_OPTION_SPEC;

/** What each option of {@link SessionContainerOptions} must be. */
const SESSION_OPTION_SPEC = {
  ...ADAPTER_OPTION_SPEC,
  image: "non-empty-string",
  name: "non-empty-string",
  network: "non-empty-string",
  binds: { expected: "an array of strings", test: isStrings },
  env: { expected: "an array of KEY=value strings", test: isStrings },
  init: "boolean",
} as const satisfies OptionSpec;

/** Keeps the container alive without depending on anything but `sh` and `sleep`. */
const KEEP_ALIVE = ["sh", "-c", "while :; do sleep 3600; done"];

/**
 * Starts a throwaway container from a local `image` for one session (no network unless asked)
 * and returns its `Operations`; `dispose()` removes it (forcefully: nothing in it is kept).
 *
 * @example
 * ```ts
 * const session = await startSessionContainer({ image: "node:20-slim", binds: [`${repo}:/work`] });
 * try { await session.exec("npm test", { shell: "sh", cwd: "/work" }); } finally { await session.dispose(); }
 * ```
 */
export async function startSessionContainer(options: SessionContainerOptions): Promise<SessionContainer> {
  checkAdapterOptions("startSessionContainer", options, SESSION_OPTION_SPEC);
  if (options.image === undefined) {
    throw new OperationError("invalid_argument", "startSessionContainer: option image is required", {
      operation: "startSessionContainer",
    });
  }
  const { docker, endpoint } = connectEngine(options.docker);
  const name = options.name ?? `tackle-session-${randomBytes(6).toString("hex")}`;
  const context = { container: name, endpoint, operation: "startSessionContainer" };
  const hardening = options.sandbox
    ? sandboxHostConfig(options.sandbox, { network: options.network, binds: options.binds ?? [] })
    : undefined;
  let container: Awaited<ReturnType<typeof docker.createContainer>>;
  try {
    container = await docker.createContainer({
      name,
      Image: options.image,
      Entrypoint: KEEP_ALIVE,
      Cmd: [],
      Env: options.env ?? [],
      Labels: { "dev.tackle.session": "1", ...(hardening ? { "dev.tackle.sandbox": "1" } : {}) },
      HostConfig: {
        NetworkMode: options.network ?? "none",
        Init: options.init ?? true,
        Binds: options.binds ?? [],
        ...hardening,
      },
    });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) {
      throw new DockerOperationError(
        "image_not_found",
        `No such image: ${options.image}. Tackle never pulls images: pull it on the engine (docker pull ${options.image}) or build it, then retry.`,
        {
          cause: error,
          operation: "startSessionContainer",
        },
      );
    }
    throw engineError(error, context);
  }
  const remove = async () => {
    try {
      await container.remove({ force: true, v: true });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw engineError(error, context);
    }
  };
  let operations: DockerOperations;
  try {
    await container.start();
    const {
      image: _image,
      name: _name,
      network: _network,
      binds: _binds,
      env: _env,
      init: _init,
      ...adapter
    } = options;
    operations = createDockerOperations({ ...adapter, container: container.id });
    // Connected before it is returned: `homeDir` and `search` are known (the spread below copies them).
    await operations.connect();
  } catch (error) {
    await remove().catch(() => undefined);
    throw error instanceof DockerOperationError ? error : engineError(error, context);
  }
  let disposed: Promise<void> | undefined;
  return {
    ...operations,
    id: `docker://${name}`,
    ...(operations.environment ? { environment: { ...operations.environment, container: name } } : {}),
    containerId: container.id,
    dispose: () => {
      disposed ??= (async () => {
        await operations.dispose?.();
        await remove();
      })();
      return disposed;
    },
  };
}
