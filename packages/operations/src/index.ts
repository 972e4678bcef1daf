export type { OperationErrorCode, OperationErrorOptions } from "./errors.js";
export {
  codeFromErrno,
  isOperationError,
  OPERATION_ERROR_CODES,
  OperationError,
  raceAbort,
  throwIfAborted,
  toOperationError,
} from "./errors.js";
export type { RipgrepPlan, RipgrepTarget } from "./ripgrep/args.js";
export { COMMON_RIPGREP_ARGS, planFiles, planGrep } from "./ripgrep/args.js";
export type { RipgrepExit } from "./ripgrep/errors.js";
export { RIPGREP_STDERR_LIMIT, ripgrepExitError } from "./ripgrep/errors.js";
export type { GlobMatcher } from "./ripgrep/glob.js";
export { compileGlob } from "./ripgrep/glob.js";
export type { GlobSelection } from "./ripgrep/glob-selection.js";
export { GLOB_TYPE_NAME, globSelection } from "./ripgrep/glob-selection.js";
export type { RipgrepPlatform } from "./ripgrep/json-events.js";
export { parseGrepRecord, ripgrepRelativePath } from "./ripgrep/json-events.js";
export { RecordSplitter } from "./ripgrep/records.js";
export type { RipgrepBatches } from "./ripgrep/results.js";
export { filePathsOf, grepEventsOf } from "./ripgrep/results.js";
export type {
  CallOptions,
  DirEntry,
  EditOperations,
  ExecCleanup,
  ExecOptions,
  ExecResult,
  ExecStatus,
  FileStat,
  FilesRequest,
  FileType,
  FindOperations,
  GrepEvent,
  GrepOperations,
  GrepRequest,
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
  WriteFileOptions,
  WriteOperations,
} from "./types.js";
