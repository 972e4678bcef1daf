import { type ExtensionContext, sessionKey } from "@tackle/extensions";

/** The real path of the session's artifact directory, once it was made readable. */
const READABLE_ARTIFACTS = sessionKey<Promise<string>>("artifacts.readable");

/**
 * The real path of the session's artifact directory, added to the workspace roots the first time
 * it is asked for in a session, so `read` can page a command's full output. Resolved once per
 * session: over SSH every realpath is a round trip.
 */
export async function readableArtifactDirectory(ctx: ExtensionContext): Promise<string> {
  let real = ctx.state.get(READABLE_ARTIFACTS);
  if (real === undefined) {
    // Roots are real paths: /tmp may be a link (macOS), so resolve before adding.
    real = ctx.artifacts.directory().then((dir) => ctx.operations.realpath(dir));
    ctx.state.set(READABLE_ARTIFACTS, real);
    real.catch(() => ctx.state.delete(READABLE_ARTIFACTS));
  }
  const dir = await real;
  if (!ctx.workspace.roots.includes(dir)) ctx.workspace.addRoot(dir);
  return dir;
}
