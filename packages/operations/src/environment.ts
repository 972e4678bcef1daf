/**
 * Where an `Operations` object works, said for people reading a record afterwards ("which
 * machine did this run on?"): the kind of environment and how it is reached. Plain JSON, never a
 * secret (no key, password or token; a user name and a host are not secrets).
 */
export interface EnvironmentDescription {
  /** `local`, `ssh`, `docker`, or another adapter's own word. */
  kind: string;
  /** Host the commands run on (local: this machine's host name; SSH: the server). */
  host?: string;
  port?: number;
  /** The user the environment acts as, when known. */
  user?: string;
  /** Container name or id (Docker and other container adapters). */
  container?: string;
  /** How the container engine is reached (`unix:///var/run/docker.sock`, `ssh://…`, `tcp://…`). */
  engine?: string;
  /** How commands are confined, when they are (`none` or the mechanism's name). */
  sandbox?: string;
}
