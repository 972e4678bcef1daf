import { UsageError } from "./usage-error.js";

/** Where the tools run, parsed from `--env`. */
export type EnvSpec =
  | { kind: "local" }
  | { kind: "ssh"; username: string; host: string; port: number; path?: string }
  | { kind: "docker"; container: string; path?: string };

const ENV_HELP = "Use one of: local, ssh://user@host[:port]/path, docker://container[/path].";

/**
 * Parses an environment URL: `local` (default), `ssh://user@host[:port]/path`,
 * `docker://container[/path]`. Throws a {@link UsageError} that shows the accepted forms.
 */
export function parseEnvUrl(input: string | undefined): EnvSpec {
  const text = (input ?? "local").trim();
  if (text === "" || text === "local") return { kind: "local" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`Not an environment URL: "${text}". ${ENV_HELP}`);
  }
  const path = url.pathname && url.pathname !== "/" ? decodeURIComponent(url.pathname) : undefined;
  if (url.protocol === "ssh:") {
    if (!url.username)
      throw new UsageError(`The ssh URL "${text}" names no user. Write it as ssh://user@host[:port]/path.`);
    if (!url.hostname)
      throw new UsageError(`The ssh URL "${text}" names no host. Write it as ssh://user@host[:port]/path.`);
    const port = url.port ? Number(url.port) : 22;
    return {
      kind: "ssh",
      username: decodeURIComponent(url.username),
      host: url.hostname,
      port,
      ...(path ? { path } : {}),
    };
  }
  if (url.protocol === "docker:") {
    const container = decodeURIComponent(url.hostname || "");
    if (!container)
      throw new UsageError(
        `The docker URL "${text}" names no container. Write it as docker://container[/path].`,
      );
    return { kind: "docker", container, ...(path ? { path } : {}) };
  }
  throw new UsageError(`Unknown environment "${url.protocol.replace(/:$/, "")}" in "${text}". ${ENV_HELP}`);
}
