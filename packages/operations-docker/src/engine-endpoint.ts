/**
 * Where the Docker engine is, decided the way the docker CLI decides it: an explicit host, else
 * `DOCKER_HOST`, else the context named by `DOCKER_CONTEXT` or by `currentContext` in the docker
 * config file, else the default socket. TLS material comes from `DOCKER_TLS_VERIFY` /
 * `DOCKER_CERT_PATH` (or the context's own TLS directory).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { DockerOperationError } from "./engine-error.js";

/** The engine's socket when nothing says otherwise (also the remote default for `ssh://`). */
export const DEFAULT_ENGINE_SOCKET = "/var/run/docker.sock";

/** TLS for a `tcp://` engine. */
export interface DockerTlsOptions {
  /** CA that signed the engine's certificate (PEM). */
  ca?: string | Uint8Array;
  /** Client certificate and key (PEM), for an engine started with `--tlsverify`. */
  cert?: string | Uint8Array;
  key?: string | Uint8Array;
  /** Check the engine's certificate against `ca` (default true; false is `DOCKER_TLS` without `_VERIFY`). */
  verify?: boolean;
}

/** An engine reached over SSH: the remote host and the engine's socket there. */
export interface SshEngineTarget {
  /** Login user from the URL (`ssh://user@host`); `undefined` means the local user name. */
  username: string | undefined;
  host: string;
  port: number;
  /** The engine's unix socket on the remote host (default {@link DEFAULT_ENGINE_SOCKET}). */
  socketPath: string;
}

/** The engine's location, resolved. `url` and `source` are for messages. */
export type EngineEndpoint = (
  | { kind: "unix"; socketPath: string }
  | { kind: "tcp"; host: string; port: number; tls: DockerTlsOptions | undefined }
  | ({ kind: "ssh" } & SshEngineTarget)
) & {
  /** The endpoint as a URL: `unix:///var/run/docker.sock`, `tcp://host:2376`, `ssh://me@host:22/var/run/docker.sock`. */
  url: string;
  /** Where the choice came from: `"docker option"`, `"DOCKER_HOST"`, `Docker context "x"`, `"default"`. */
  source: string;
};

/** Environment variables the resolution reads (default `process.env`). */
export type EngineEnvironment = Record<string, string | undefined>;

function configError(message: string, cause?: unknown): DockerOperationError {
  return new DockerOperationError("engine_config", message, cause === undefined ? {} : { cause });
}

function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw configError(
      `The ${what} ${path} cannot be read (${(error as NodeJS.ErrnoException).code}). Check the path.`,
      error,
    );
  }
}

/** TLS material from a directory holding `ca.pem`, `cert.pem` and `key.pem` (the docker CLI's layout). */
function tlsFromDirectory(dir: string, verify: boolean): DockerTlsOptions {
  return {
    ca: readPem(join(dir, "ca.pem"), "CA certificate"),
    cert: readPem(join(dir, "cert.pem"), "client certificate"),
    key: readPem(join(dir, "key.pem"), "client key"),
    verify,
  };
}

/** The docker config directory: `DOCKER_CONFIG`, else `~/.docker`. */
function configDirectory(env: EngineEnvironment): string {
  return env.DOCKER_CONFIG || join(homedir(), ".docker");
}

/**
 * Parses an engine URL: `unix:///path`, `tcp://host[:port]`, `ssh://[user@]host[:port][/socket]`,
 * `http://` / `https://host[:port]`. `tls` applies to `tcp://` (and makes its default port 2376).
 * A path after an `ssh://` host names the engine's socket on that host (default
 * `/var/run/docker.sock`; the docker CLI itself accepts no path there).
 */
export function parseEngineUrl(
  text: string,
  source: string,
  tls?: DockerTlsOptions | (() => DockerTlsOptions | undefined),
): EngineEndpoint {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw configError(
      `${source} "${text}" is not an engine URL. Use unix:///path/docker.sock, tcp://host:port or ssh://user@host.`,
      error,
    );
  }
  switch (url.protocol) {
    case "unix:": {
      const socketPath = decodeURIComponent(url.pathname) || DEFAULT_ENGINE_SOCKET;
      return { kind: "unix", socketPath, url: `unix://${socketPath}`, source };
    }
    case "tcp:":
    case "http:":
    case "https:": {
      const material = typeof tls === "function" ? tls() : tls;
      const secure = url.protocol === "https:" || material !== undefined;
      const port = url.port ? Number(url.port) : secure ? 2376 : 2375;
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const scheme = url.protocol === "tcp:" ? "tcp" : url.protocol.slice(0, -1);
      return {
        kind: "tcp",
        host,
        port,
        tls: material ?? (url.protocol === "https:" ? { verify: true } : undefined),
        url: `${scheme}://${url.hostname}:${port}`,
        source,
      };
    }
    case "ssh:": {
      const username = url.username ? decodeURIComponent(url.username) : undefined;
      const port = url.port ? Number(url.port) : 22;
      const path = decodeURIComponent(url.pathname);
      const socketPath = path && path !== "/" ? path : DEFAULT_ENGINE_SOCKET;
      return {
        kind: "ssh",
        username,
        host: url.hostname,
        port,
        socketPath,
        url: `ssh://${username ? `${username}@` : ""}${url.hostname}:${port}${socketPath}`,
        source,
      };
    }
    default:
      throw configError(
        `${source} "${text}" uses the scheme ${url.protocol.replace(/:$/, "")}://, which is not supported. Use unix://, tcp:// or ssh://.`,
      );
  }
}

/** TLS as the docker CLI takes it from the environment: `DOCKER_TLS_VERIFY`, `DOCKER_TLS`, `DOCKER_CERT_PATH`. */
function tlsFromEnvironment(env: EngineEnvironment): DockerTlsOptions | undefined {
  const verify = Boolean(env.DOCKER_TLS_VERIFY);
  if (!verify && !env.DOCKER_TLS) return undefined;
  return tlsFromDirectory(env.DOCKER_CERT_PATH || configDirectory(env), verify);
}

interface ContextMeta {
  Endpoints?: { docker?: { Host?: string; SkipTLSVerify?: boolean } };
}

/** The engine of a docker context, from `<config>/contexts/meta/<sha256 of name>/meta.json`. */
function contextEndpoint(name: string, via: string, env: EngineEnvironment): EngineEndpoint | undefined {
  if (name === "default") return undefined;
  const dir = configDirectory(env);
  const id = createHash("sha256").update(name).digest("hex");
  const metaPath = join(dir, "contexts", "meta", id, "meta.json");
  let meta: ContextMeta;
  try {
    meta = JSON.parse(readFileSync(metaPath, "utf8")) as ContextMeta;
  } catch (error) {
    throw configError(
      `Docker context "${name}" (from ${via}) does not exist or cannot be read (${metaPath}). List the contexts with docker context ls, or choose the engine with DOCKER_HOST.`,
      error,
    );
  }
  const docker = meta.Endpoints?.docker;
  if (!docker?.Host) return undefined;
  const tlsDir = join(dir, "contexts", "tls", id, "docker");
  let tls: DockerTlsOptions | undefined;
  try {
    tls = {
      ca: readFileSync(join(tlsDir, "ca.pem")),
      cert: readFileSync(join(tlsDir, "cert.pem")),
      key: readFileSync(join(tlsDir, "key.pem")),
      verify: docker.SkipTLSVerify !== true,
    };
  } catch {
    // A context without TLS material talks plain (or over ssh / a socket).
    tls = docker.SkipTLSVerify === true ? { verify: false } : undefined;
  }
  return parseEngineUrl(docker.Host, `Docker context "${name}"`, tls);
}

/** The current context's name: `DOCKER_CONTEXT`, else `currentContext` in `<config>/config.json`. */
function currentContext(env: EngineEnvironment): { name: string; via: string } | undefined {
  if (env.DOCKER_CONTEXT) return { name: env.DOCKER_CONTEXT, via: "DOCKER_CONTEXT" };
  const configPath = join(configDirectory(env), "config.json");
  try {
    const config = JSON.parse(readFileSync(configPath, "utf8")) as { currentContext?: unknown };
    if (typeof config.currentContext === "string" && config.currentContext)
      return { name: config.currentContext, via: configPath };
  } catch {
    // No config file (or not JSON): no current context, as for the docker CLI.
  }
  return undefined;
}

/**
 * Resolves where the engine is. `host` (an explicit choice, e.g. a `--docker-host` flag or the
 * `docker` option) wins; then `DOCKER_HOST`; then `DOCKER_CONTEXT` or the config's
 * `currentContext`; then {@link DEFAULT_ENGINE_SOCKET}. Throws a `DockerOperationError` with
 * reason `engine_config` when the choice cannot be used (malformed URL, missing context or
 * certificate files).
 *
 * @example
 * ```ts
 * resolveEngineEndpoint(undefined, { DOCKER_HOST: "ssh://me@build" }).url; // "ssh://me@build:22/var/run/docker.sock"
 * ```
 */
export function resolveEngineEndpoint(
  explicit?: { host: string; tls?: DockerTlsOptions | undefined; source?: string },
  env: EngineEnvironment = process.env,
): EngineEndpoint {
  // As with the docker CLI, DOCKER_TLS_VERIFY / DOCKER_CERT_PATH apply to an explicit tcp:// host too.
  const envTls = () => tlsFromEnvironment(env);
  if (explicit)
    return parseEngineUrl(explicit.host, explicit.source ?? "docker option", explicit.tls ?? envTls);
  if (env.DOCKER_HOST) return parseEngineUrl(env.DOCKER_HOST, "DOCKER_HOST", envTls);
  const context = currentContext(env);
  const fromContext = context ? contextEndpoint(context.name, context.via, env) : undefined;
  if (fromContext) return fromContext;
  return {
    kind: "unix",
    socketPath: DEFAULT_ENGINE_SOCKET,
    url: `unix://${DEFAULT_ENGINE_SOCKET}`,
    source: "default",
  };
}
