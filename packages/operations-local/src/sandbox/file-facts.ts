import { lstatSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import type { SandboxFileFacts } from "@tackle/operations/adapter";

/**
 * The sandbox profile's view of the local disk. Synchronous calls on purpose: the profile makes
 * a few dozen lookups per call, each a microsecond system call; through the thread pool each
 * would cost an event-loop turn, several milliseconds in all on a loaded machine.
 */
export const localFileFacts: SandboxFileFacts = {
  lstat: async (path) => {
    try {
      const info = lstatSync(path);
      return info.isSymbolicLink() ? "link" : info.isDirectory() ? "dir" : "file";
    } catch {
      return undefined;
    }
  },
  stat: async (path) => {
    try {
      return statSync(path).isDirectory() ? "dir" : "file";
    } catch {
      return undefined;
    }
  },
  realpath: async (path) => {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
  get userHome() {
    return homedir();
  },
};
