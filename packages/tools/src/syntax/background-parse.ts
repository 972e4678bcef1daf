import { loadGrammar, type SteppedParse, type SyntaxTree, startParse } from "@tackle/tree-sitter";
import type { SyntaxLanguage } from "./languages.js";
import { latestTree, remember } from "./parse-cache.js";
import type { SyntaxProblem } from "./syntax-problem.js";
import { treeVerdict } from "./tree-verdict.js";

/**
 * Parses of files in the background, so that the first change to a file the model has read
 * re-parses incrementally, as every later change does (see `parse-cache.ts`): the read hands the
 * file's text here, a full parse runs off the read's and the edit's critical path, and its tree
 * and verdict go to the parse cache.
 *
 * On the main thread, in steps: each step parses for at most {@link BACKGROUND_STEP_MS} and
 * yields to the event loop (tree-sitter resumes a halted parse where it stopped), so no other
 * work waits longer than one step. Steps are scheduled with an unreferenced timer: a process that
 * has nothing else to do exits without waiting for them. One file is parsed at a
 * time, oldest first; at most {@link MAX_BACKGROUND_PARSES} wait.
 *
 * An edit never waits on the event loop for a background parse: before the check of a change
 * reads the cache, {@link settleBackgroundParse} ends the file's parse. One that has started is
 * finished at once (the rest of a parse, never more than one full parse, and the steps it already
 * made were not lost: the change then re-parses incrementally from its tree); one still waiting
 * is dropped, and the check parses as it would have without it. No lock, so no deadlock.
 */

/** Longest one background step keeps the event loop, in milliseconds. */
export const BACKGROUND_STEP_MS = 2;
/** Most files waiting for (or in) a background parse: a new one drops the oldest. */
export const MAX_BACKGROUND_PARSES = 8;

/** A file to parse in the background. */
export interface BackgroundParseRequest {
  /** The file's key in the parse cache. */
  key: string;
  /** Its language (one with a tree-sitter grammar). */
  language: SyntaxLanguage;
  /** The text to parse, made on the first step (undefined: nothing to parse). */
  source: () => string | undefined;
  /** When it aborts, the parse is dropped (the tool context that asked was disposed). */
  owner: AbortSignal;
}

interface Job extends BackgroundParseRequest {
  text?: string;
  parse?: SteppedParse;
  starting?: boolean;
}

/** Waiting and running parses by cache key, oldest first. */
const jobs = new Map<string, Job>();
let scheduled = false;

/** Queues a background parse of a file (replacing one of the same file that waits or runs). */
export function parseInBackground(request: BackgroundParseRequest): void {
  if (request.owner.aborted || !request.language.grammar) return;
  const waiting = jobs.get(request.key);
  if (waiting) drop(waiting);
  for (const oldest of jobs.values()) {
    if (jobs.size < MAX_BACKGROUND_PARSES) break;
    drop(oldest);
  }
  jobs.set(request.key, { ...request });
  schedule();
}

/**
 * Ends the background parse of the file at `key`, if any, before a check uses the cache: finished
 * at once when it has started (its tree goes to the cache), dropped when it still waits.
 */
export function settleBackgroundParse(key: string): void {
  const job = jobs.get(key);
  if (!job) return;
  if (job.parse && !job.parse.ended) finishOrDrop(job, () => job.parse?.finish());
  else drop(job);
}

/** Drops every background parse whose owner is `owner` (its context is being disposed). */
export function dropBackgroundParses(owner: AbortSignal): void {
  for (const job of [...jobs.values()]) if (job.owner === owner) drop(job);
}

/** Drops every background parse (with the whole cache: see `cache-control.ts`). */
export function dropAllBackgroundParses(): void {
  for (const job of [...jobs.values()]) drop(job);
}

/** Files waiting for or in a background parse. */
export function backgroundParseCount(): number {
  return jobs.size;
}

/** Where the background parse of the file at `key` is: waiting its turn, or parsing (how far). */
export function backgroundParseOf(
  key: string,
): { state: "waiting" | "parsing"; progress: number } | undefined {
  const job = jobs.get(key);
  if (!job) return undefined;
  return job.parse ? { state: "parsing", progress: job.parse.progress } : { state: "waiting", progress: 0 };
}

function schedule(): void {
  if (scheduled || jobs.size === 0) return;
  scheduled = true;
  // A timer, not setImmediate: an unreferenced immediate does not wake an event loop waiting for
  // I/O (the steps would run only when something else happens), an unreferenced timer does.
  setTimeout(() => {
    scheduled = false;
    step();
  }, 0).unref();
}

/** One step of the oldest parse: starts it, or parses for at most BACKGROUND_STEP_MS. */
function step(): void {
  const job = jobs.values().next().value;
  if (!job) return;
  if (job.owner.aborted) {
    drop(job);
  } else if (!job.parse) {
    // `start` schedules the next step once the grammar is loaded.
    if (!job.starting) void start(job);
    return;
  } else {
    const parse = job.parse;
    finishOrDrop(job, () => parse.step(performance.now() + BACKGROUND_STEP_MS));
  }
  schedule();
}

/**
 * Runs `parse` (a step, or the rest of the parse) and completes the job when it returns a tree.
 * Never throws: this runs in a timer, where an exception would end the host process, and before
 * a check, which must not fail for a parse it did not need.
 */
function finishOrDrop(job: Job, parse: () => SyntaxTree | undefined): void {
  try {
    const tree = parse();
    if (tree) complete(job, tree);
  } catch {
    drop(job);
  }
}

async function start(job: Job): Promise<void> {
  job.starting = true;
  try {
    const text = job.source();
    // Nothing to do: too large, or the cache already has this very text with its tree.
    if (text === undefined || latestTree(job.key, job.language.id)?.text === text) {
      drop(job);
      return;
    }
    job.text = text;
    const grammar = await loadGrammar((job.language.grammar as () => string)());
    if (jobs.get(job.key) !== job) return;
    const parse = await startParse(grammar, text);
    if (jobs.get(job.key) === job) job.parse = parse;
    else parse.cancel();
  } catch {
    // A grammar that does not load is the check's to report, on the change that needs it.
    drop(job);
  } finally {
    job.starting = false;
    schedule();
  }
}

function complete(job: Job, tree: SyntaxTree): void {
  if (jobs.get(job.key) === job) jobs.delete(job.key);
  const text = job.text as string;
  let problems: SyntaxProblem[];
  try {
    problems = treeVerdict(job.language, text, tree);
  } catch (error) {
    tree.delete();
    throw error;
  }
  remember(job.key, { language: job.language.id, text, problems }, tree);
}

function drop(job: Job): void {
  if (jobs.get(job.key) === job) jobs.delete(job.key);
  job.parse?.cancel();
}
