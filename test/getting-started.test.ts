/**
 * The site's Getting started page followed literally: its shell blocks run exactly as printed, in
 * order, in an empty folder, its file written from the page, and what the program prints compared
 * with the page's expected output. Step 2 (clone and `pnpm pack:all`) is the one step not run as
 * printed: there is no network to clone from, so the same script packs this checkout's packages
 * into `~/tackle/tarballs` of a temporary home, where the page's install line finds them.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { sharedNpmCache } from "../scripts/consumer-install.mjs";
// @ts-expect-error plain ESM script without types
import { packAll } from "../scripts/pack-all.mjs";
import { pageSteps } from "./page-steps.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const page = path.join(root, "docs", "getting-started.md");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-getting-started-"));

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs one shell block in bash (stops at the first failing command) and returns where it ended. */
async function runBlock(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  const wherePath = path.join(work, "cwd");
  const { stdout } = await run("bash", ["-e", "-c", `${script}\npwd > "${wherePath}"`], {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, cwd: fs.readFileSync(wherePath, "utf8").trim() };
}

/** The program's output with the one thing that differs per run (a duration) made equal. */
function normalized(text: string): string {
  return text.replace(/completed in [\d.]+ m?s/g, "completed in N s").trimEnd();
}

describe("the Getting started page", () => {
  it("runs as printed in an empty folder and prints what the page shows", async () => {
    const steps = pageSteps(fs.readFileSync(page, "utf8"));
    expect(steps.map((step) => step.kind)).toEqual(["build", "run", "run", "file", "run", "output"]);
    expect(steps[0]?.text).toContain("pnpm pack:all");

    const home = path.join(work, "home");
    packAll(root, path.join(home, "tackle", "tarballs"));
    const project = path.join(work, "empty");
    fs.mkdirSync(project, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      // The page's Node first; npm's cache shared with the pack-and-install test.
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
      npm_config_cache: sharedNpmCache(root),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };

    let cwd = project;
    let printed = "";
    for (const step of steps.slice(1)) {
      if (step.kind === "file") fs.writeFileSync(path.join(cwd, step.file ?? ""), step.text);
      if (step.kind === "run") ({ stdout: printed, cwd } = await runBlock(step.text, cwd, env));
      if (step.kind === "output") expect(normalized(printed)).toBe(normalized(step.text));
    }
    expect(path.basename(cwd)).toBe("hello-tackle");
  }, 600_000);
});
