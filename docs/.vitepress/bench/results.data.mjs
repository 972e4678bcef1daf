// VitePress data loader: the Benchmarks page's charts and tables, computed at build time from the
// committed snapshot docs/benchmarks/results.jsonl (see snapshot.mjs for how it is made).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchGroups, ratioChart, scaleCharts, tableRows } from "./charts.mjs";
import { parseResults } from "./results.mjs";

const snapshot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../benchmarks/results.jsonl");

export default {
  watch: [snapshot],
  load() {
    const records = parseResults(fs.readFileSync(snapshot, "utf8"), "docs/benchmarks/results.jsonl");
    return benchGroups(records).map((group) => {
      const run = group.records[0].run ?? {};
      const ratio = ratioChart(group.records);
      return {
        id: `${group.package.replace(/^@tackle\//, "")}-${group.bench}`,
        title: `${group.package}: ${group.bench}`,
        run: `Run ${run.startedAt ?? "?"} at commit ${run.commit ?? "?"}, Node ${run.node ?? "?"}, ${run.cpus ?? "?"} CPUs, load average ${(run.loadavg ?? []).join(" ")}`,
        ratio: ratio?.svg,
        ratioHelp: ratio?.help,
        scale: scaleCharts(group.records),
        rows: tableRows(group.records),
      };
    });
  },
};
