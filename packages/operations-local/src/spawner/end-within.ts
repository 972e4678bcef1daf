/**
 * Waits for `exited`, at most `ms`; past that sends `process` SIGKILL, then waits for its end.
 * The timer keeps the event loop alive while it waits (the process may not).
 */
export async function endWithin(
  process: { kill(signal?: NodeJS.Signals): boolean },
  exited: Promise<void>,
  ms: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exited,
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        process.kill("SIGKILL");
        resolve();
      }, ms);
    }),
  ]);
  clearTimeout(timer);
  await exited;
}
