import {
  type ListTreeOptions,
  raceAbort,
  runTreeListing,
  TREE_LISTING_SCRIPT,
  type TreeListing,
  type TreeListingMode,
  throwIfAborted,
} from "@tackle/operations";
import { raceLost, type SshConnection } from "./connection.js";
import { stopRemote } from "./remote-search.js";
import { checkRemotePath } from "./sftp-call.js";
import { shellQuote } from "./shell-quote.js";

/**
 * `Operations.listTree` over SSH: the whole listing is one exec of the shared listing script
 * (`find` with GNU `-printf`, or `stat` in batches where find has no `-printf`), not an SFTP round
 * trip per directory and per file. Which of the two the host has is learnt on the first call and
 * passed on after that.
 */
export function createTreeListing(
  connection: SshConnection,
): (root: string, options: ListTreeOptions) => Promise<TreeListing> {
  let mode: TreeListingMode | undefined;
  return async (root, options) => {
    checkRemotePath(root, "listTree");
    const result = await runTreeListing(root, options, mode, (args, signal, onChunk) =>
      runListingScript(connection, args, signal, onChunk),
    );
    mode ??= result.mode;
    return result.listing;
  };
}

/**
 * Runs the script on a command channel, streaming its stdout to `onChunk`; resolves with its exit
 * code. On abort the remote group is ended through a helper channel (the pid comes first on
 * stderr, as for a search) while the call rejects at once.
 */
async function runListingScript(
  connection: SshConnection,
  args: string[],
  signal: AbortSignal,
  onChunk: (bytes: Uint8Array) => void,
): Promise<number> {
  throwIfAborted(signal, "listTree");
  const session = await connection.session(signal, "listTree");
  const release = await connection.slots.acquire(signal);
  let stderr = "";
  let exitCode: number | null = null;
  let closed!: Promise<void>;
  const command = `echo "$$" >&2; exec sh -c ${shellQuote(TREE_LISTING_SCRIPT)} listtree ${args.map(shellQuote).join(" ")} </dev/null`;
  const channel = await raceLost(
    session.exec(command, (opened) => {
      // Listeners go on synchronously: see Session.exec.
      opened.on("data", (bytes: Buffer) => onChunk(bytes));
      opened.stderr.on("data", (bytes: Buffer) => {
        if (stderr.length < 4096) stderr += bytes.toString("utf8");
      });
      opened.on("exit", (code: number | null) => {
        exitCode = code;
      });
      closed = new Promise<void>((resolve) => opened.on("close", () => resolve()));
      return opened;
    }),
    session,
    "listTree",
  ).catch((error: unknown) => {
    release();
    throw error;
  });
  channel.end();
  let ended = false;
  try {
    await raceAbort(raceLost(closed, session, "listTree"), signal, "listTree");
    ended = true;
    return exitCode ?? 1;
  } finally {
    if (ended) release();
    else void stopRemote(session, channel, stderr).finally(release);
  }
}
