import { UsageError } from "./usage-error.js";

/** Where the tools run, parsed from `--env`. */
export type EnvSpec =
  | { kind: "local" }
  | { kind: "ssh"; username: string; host: string; port: number; path?: string }
  | { kind: "docker"; container: string; path?: string }
  /**
   * `k8s://[context/]namespace/pod[/container]`: the parts as written (2 to 4). Three parts are
   * `context/namespace/pod` when the kubeconfig has a context of the first part's name, else
   * `namespace/pod/container`: only the kubeconfig can tell, so the opener decides.
   */
  | { kind: "k8s"; parts: string[] };

const ENV_HELP =
  "Use one of: local, ssh://user@host[:port]/path, docker://container[/path], k8s://[context/]namespace/pod[/container].";
const K8S_FORM = "k8s://[context/]namespace/pod[/container]";

/**
 * Parses an environment URL: `local` (default), `ssh://user@host[:port]/path`,
 * `docker://container[/path]`. Throws a {@link UsageError} that shows the accepted forms.
 */
export function parseEnvUrl(input: string | undefined): EnvSpec {
  const text = (input ?? "local").trim();
  if (text === "" || text === "local") return { kind: "local" };
  if (/^(k8s|kubernetes):\/\//.test(text)) return parseK8s(text);
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

/** `k8s://[context/]namespace/pod[/container]`, each part percent-decoded (a context may hold `:` or `/`). */
function parseK8s(text: string): EnvSpec {
  const rest = text.replace(/^(k8s|kubernetes):\/\//, "");
  let parts: string[];
  try {
    parts = rest.split("/").map((part) => decodeURIComponent(part));
  } catch {
    throw new UsageError(`The k8s URL "${text}" has a broken %-escape. Write it as ${K8S_FORM}.`);
  }
  if (parts.length < 2 || parts.length > 4 || parts.some((part) => part === "")) {
    throw new UsageError(
      `The k8s URL "${text}" must name a namespace and a pod. Write it as ${K8S_FORM} (e.g. k8s://default/dev-0).`,
    );
  }
  return { kind: "k8s", parts };
}
