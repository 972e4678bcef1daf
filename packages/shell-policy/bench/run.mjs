// Package bench entry (`pnpm --filter <this package> bench`): every bench/*.bench.mjs in its own
// Node process, one after another; names pick a subset, --json prints JSON lines.
import { runBenchFiles } from "../../../scripts/bench/run-all.mjs";

runBenchFiles(import.meta.url);
