export type { EnvironmentDescription } from "./environment.js";
export type { OperationErrorCode, OperationErrorOptions } from "./errors.js";
export {
  codeFromErrno,
  isOperationError,
  notRegularFileError,
  OPERATION_ERROR_CODES,
  OperationError,
  raceAbort,
  throwIfAborted,
  toOperationError,
} from "./errors.js";
export type { OutputCut } from "./output-cut.js";
export {
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  outputCutMarker,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
} from "./output-cut.js";
export { GREP_MAX_LINE_CHARS } from "./ripgrep/grep-output.js";
export type { SandboxBlock, SandboxNetwork, SandboxOptions, SandboxReport } from "./sandbox.js";
export { DEFAULT_SANDBOX_DENY } from "./sandbox.js";
export type { ParsedTempFileName, TempFileFacts, TempFileOwner } from "./temp-files.js";
export {
  FOREIGN_TEMP_MAX_AGE_MS,
  isAbandonedTempFile,
  isTempFileName,
  parseTempFileName,
  runningProcessStart,
  TEMP_TARGET_MAX_BYTES,
  tempFileDomain,
  tempFileName,
} from "./temp-files.js";
export type { TreeListingMode } from "./tree-listing.js";
export {
  runTreeListing,
  TREE_LISTING_EXIT,
  TREE_LISTING_SCRIPT,
  TreeListingReader,
  treeListingOf,
} from "./tree-listing.js";
export type {
  CallOptions,
  DirEntry,
  EditOperations,
  ExecCleanup,
  ExecOptions,
  ExecResult,
  ExecSpawn,
  ExecStatus,
  FileStat,
  FilesRequest,
  FileType,
  FindOperations,
  GrepEvent,
  GrepOperations,
  GrepRequest,
  ListTreeOptions,
  LsOperations,
  MkdirOptions,
  OpenReadOptions,
  Operations,
  OutputChunk,
  ReadFileOptions,
  ReadOperations,
  RemoveOptions,
  SearchOperations,
  ShellKind,
  ShellOperations,
  TreeChanges,
  TreeEntry,
  TreeListing,
  TreeWatch,
  WatchTreeOptions,
  WriteExpectation,
  WriteFileOptions,
  WriteOperations,
} from "./types.js";
export type { WriteLockFacts } from "./write-lock.js";
export {
  CONDITIONAL_WRITE_EXIT,
  changedError,
  conditionalWriteError,
  formatWriteLockOwner,
  isAbandonedWriteLock,
  isWriteLockName,
  parseWriteLockOwner,
  WRITE_LOCK_FOREIGN_MAX_AGE_MS,
  WRITE_LOCK_SHELL,
  WRITE_LOCK_SHELL_FOREIGN_MINUTES,
  WRITE_LOCK_SHELL_TRIES,
  WRITE_LOCK_TARGET_MAX_BYTES,
  WRITE_LOCK_WAIT_MS,
  writeExpectationWord,
  writeLockName,
} from "./write-lock.js";
