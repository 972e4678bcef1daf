// Compiles the guides the way a user's project would (tsc, this package's strict tsconfig) and
// runs each one as its own Node process, so a guide is tested exactly as the site shows it.
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const examples = resolve(import.meta.dirname, "..");
/** Inside this package, so the compiled guides resolve `@tackle/*` from its node_modules. */
const outDir = join(examples, ".guides-dist");
/** How long one guide may run. */
export const GUIDE_TIMEOUT_MS = 240_000;

/** Compiles every guide (and fails with tsc's own messages when one does not compile). */
export async function compileGuides(): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const tsc = join(examples, "node_modules", "typescript", "bin", "tsc");
  try {
    await run(process.execPath, [tsc, "-p", "tsconfig.guides.json", "--outDir", outDir], { cwd: examples });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`the guides do not compile:\n${stdout}${stderr}`);
  }
}

export interface GuideRun {
  stdout: string;
  stderr: string;
}

/**
 * Runs `guides/<name>.ts` (compiled) with Node, with `args` after the file, `env` added to this
 * process's, in `cwd` (default: this package); rejects with its output when it exits non-zero.
 */
export async function runGuide(
  name: string,
  options: { args?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<GuideRun> {
  const file = join(outDir, "guides", `${name}.js`);
  try {
    return await run(process.execPath, [file, ...(options.args ?? [])], {
      cwd: options.cwd ?? examples,
      env: { ...process.env, ...options.env },
      // Generous: the SSH and Docker guides start connections and containers on a shared machine.
      timeout: GUIDE_TIMEOUT_MS,
    });
  } catch (error) {
    const {
      stdout = "",
      stderr = "",
      killed,
      signal,
    } = error as {
      stdout?: string;
      stderr?: string;
      killed?: boolean;
      signal?: string | null;
    };
    const why = killed
      ? `still running after ${GUIDE_TIMEOUT_MS / 1000} s (ended with ${signal})`
      : String(error);
    throw new Error(`guide ${name} failed: ${why}\n${stdout}${stderr}`);
  }
}
