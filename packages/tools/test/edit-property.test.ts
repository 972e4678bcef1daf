/**
 * The edit rule as a property: for random files (code-like, Unicode, CRLF, BOM) and random
 * intended changes, each call perturbed the way models perturb calls (typography, indentation,
 * copied line numbers, double escaping, token boundaries, stale reads, sequential multi-edits,
 * placeholders), the engine's bytes are the intended file byte for byte, or the call is refused
 * and nothing is written. Never a third file. Seeded, so a failure replays.
 */
import { isToolError } from "@tackle/agent-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeEditedFile } from "../src/edit/edited-bytes.js";
import { planEdits } from "../src/edit/plan.js";
import { decodeText } from "../src/text/encoding.js";
import {
  buildScenario,
  PERTURBATIONS,
  type Perturbation,
  type Scenario,
  scenarioSeeds,
} from "./support/edit-scenarios.js";

/** Replays another run: EDIT_PROPERTY_SEED=<n> EDIT_PROPERTY_RUNS=<n>. */
const SEED = Number(process.env.EDIT_PROPERTY_SEED ?? 20261207);
const RUNS = Number(process.env.EDIT_PROPERTY_RUNS ?? 600);
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

function bytesOf(lines: readonly string[], crlf: boolean, bom: boolean): Uint8Array {
  const text = `${lines.join(crlf ? "\r\n" : "\n")}${crlf ? "\r\n" : "\n"}`;
  const body = Buffer.from(text, "utf8");
  return bom ? Buffer.concat([BOM, body]) : body;
}

type Outcome = { kind: "applied"; bytes: Uint8Array } | { kind: "refused"; code: string };

/** Runs the call the way the edit tool does: decode, plan, splice the bytes. */
function run(scenario: Scenario): Outcome {
  const bytes = bytesOf(scenario.lines, scenario.crlf, scenario.bom);
  const decoded = decodeText(bytes);
  try {
    const plan = planEdits(decoded.text, scenario.edits, { path: "f.py" });
    return { kind: "applied", bytes: plan.changed ? encodeEditedFile(bytes, decoded, plan) : bytes };
  } catch (error) {
    if (isToolError(error)) return { kind: "refused", code: error.code };
    throw error;
  }
}

const show = (bytes: Uint8Array) => JSON.stringify(Buffer.from(bytes).toString("utf8"));

describe("edit engine property: the intended file or a refusal, never a third file", () => {
  it(`holds for ${RUNS} seeded random calls, and applies calls under every perturbation`, () => {
    const applied = new Map<Perturbation, number>(PERTURBATIONS.map((kind) => [kind, 0]));
    fc.assert(
      fc.property(scenarioSeeds, (seed) => {
        const scenario = buildScenario(seed);
        const outcome = run(scenario);
        if (outcome.kind === "refused") return;
        const expected = scenario.intended && bytesOf(scenario.intended, scenario.crlf, scenario.bom);
        if (!expected || Buffer.compare(Buffer.from(outcome.bytes), Buffer.from(expected)) !== 0) {
          throw new Error(
            `${scenario.perturbation}: wrote ${show(outcome.bytes)}\nintended ${expected ? show(expected) : "(refusal)"}\nedits ${JSON.stringify(scenario.edits)}`,
          );
        }
        applied.set(scenario.perturbation, (applied.get(scenario.perturbation) ?? 0) + 1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Not vacuous: every perturbation a model can recover from was applied somewhere.
    for (const kind of PERTURBATIONS) {
      if (kind === "indentation") continue;
      expect(applied.get(kind), kind).toBeGreaterThan(0);
    }
  });
});
