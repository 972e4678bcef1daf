// Redaction precision and recall through the real tools (read, grep, bash), on the corpus of
// bench/redaction-corpus.mjs: real library source (every line is code: a placeholder in its
// output is a line of code the model cannot see) and planted secrets of every documented kind
// (a planted value in any output is an exposed secret). Both targets are 0. Run
// `pnpm --filter @tackle/tools build` first. REDACTION_BENCH_SHOW=1 prints each redacted code line
// and each exposed secret's kind and file.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { createToolDefinition } from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";
import { libraryFiles, plantedFiles, plantedSecrets } from "./redaction-corpus.mjs";

const report = createBenchReport(import.meta.url, "redaction");
const SHOW = process.env.REDACTION_BENCH_SHOW === "1";
/** A placeholder (the notices' generic `[REDACTED:kind]` is not one). */
const PLACEHOLDER = /\[REDACTED:(?!kind\])[a-z0-9-]+\]/;
/**
 * Library lines that really hold a secret, reviewed by hand: hiding them is right, so they are
 * counted apart from code lines redacted. Matched by file name and the placeholder's kind.
 */
const REAL_SECRETS = [
  // An Ed25519 private key ssh2 signs with once to learn whether the runtime supports EdDSA.
  {
    file: "ssh2/lib/protocol/constants.js",
    text: "'-----BEGIN PRIVATE KEY-----\\r\\n[REDACTED:private-key]'",
  },
];
/** Output of one bash call in the bench: under the tool's limits (50 KB, 2,000 lines), so nothing is cut. */
const BASH_PAGE_BYTES = 40_000;
const BASH_PAGE_LINES = 1_800;
/** grep's pattern over the library code: the lines that name keys, tokens, secrets and auth. */
const GREP_PATTERN = "token|secret|key|auth|passw|credential|bearer|private";

const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-redaction-bench-")));
const libraries = libraryFiles();
const secrets = plantedSecrets();
for (const file of libraries) {
  await mkdir(dirname(join(dir, file.name)), { recursive: true });
  await writeFile(join(dir, file.name), file.text);
}
for (const [name, text] of plantedFiles(secrets)) {
  await mkdir(dirname(join(dir, "planted", name)), { recursive: true });
  await writeFile(join(dir, "planted", name), text);
}
const ctx = createLocalToolContext({ cwd: dir });
const tool = (name) => wrapToolDefinition(createToolDefinition(name), () => ctx);
const read = tool("read");
const grep = tool("grep");
const bash = tool("bash");
const textOf = (outcome) => outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/**
 * Output lines holding a placeholder: code hidden from the model, unless the line is one of
 * {@link REAL_SECRETS} (counted in `real`).
 */
function redactedLines(text, where) {
  const lines = text.split("\n").filter((line) => PLACEHOLDER.test(line));
  const real = lines.filter((line) => REAL_SECRETS.some((secret) => line.includes(secret.text)));
  const code = lines.filter((line) => !real.includes(line));
  if (SHOW) for (const line of code) report.note(`  redacted code (${where}): ${line.slice(0, 160)}`);
  return { code: code.length, real: real.length };
}

/** Every page of read on one file. */
async function readAll(path) {
  let out = "";
  let offset = 1;
  for (;;) {
    const outcome = await invokeTool(read, { path, offset });
    out += `${textOf(outcome)}\n`;
    const details = outcome.details ?? {};
    if (outcome.isError || !details.endLine || details.endLine >= details.totalLines) return out;
    offset = details.endLine + 1;
  }
}

/** Every page of grep for `pattern` under `path`. */
async function grepAll(pattern, path) {
  let out = "";
  let offset = 0;
  for (;;) {
    const outcome = await invokeTool(grep, { pattern, path, ignoreCase: true, limit: 200, offset });
    out += `${textOf(outcome)}\n`;
    const next = outcome.details?.nextOffset;
    if (next === undefined || next <= offset) return out;
    offset = next;
  }
}

/**
 * Whole files through bash with as few calls as the output limits allow: `sed -n` ranges of
 * consecutive files packed into one command while they stay under {@link BASH_PAGE_BYTES} and
 * {@link BASH_PAGE_LINES}, so no output is cut.
 */
async function bashAll(files) {
  const commands = [];
  let parts = [];
  let bytes = 0;
  let lines = 0;
  const flush = () => {
    if (parts.length > 0) commands.push(parts.join("; "));
    parts = [];
    bytes = 0;
    lines = 0;
  };
  for (const file of files) {
    const fileLines = file.text.split("\n");
    let start = 0;
    for (let i = 0; i < fileLines.length; i++) {
      const cost = Buffer.byteLength(fileLines[i]) + 1;
      if (bytes + cost > BASH_PAGE_BYTES || lines + 1 > BASH_PAGE_LINES) {
        if (i > start) parts.push(`sed -n '${start + 1},${i}p' '${file.name}'`);
        start = i;
        flush();
      }
      bytes += cost;
      lines++;
    }
    parts.push(`sed -n '${start + 1},${fileLines.length}p' '${file.name}'`);
  }
  flush();
  let out = "";
  for (const command of commands) out += `${textOf(await invokeTool(bash, { command }))}\n`;
  return out;
}

function exposed(text, where) {
  let count = 0;
  for (const secret of secrets) {
    if (!secret.values.some((value) => text.includes(value))) continue;
    count++;
    if (SHOW) report.note(`  exposed (${where}): ${secret.kind} in ${secret.file}`);
  }
  return count;
}

const codeLines = libraries.reduce((sum, file) => sum + file.text.split("\n").length, 0);
report.note(
  `corpus: ${libraries.length} library files, ${codeLines} lines of code; ${secrets.length} planted secrets of ${new Set(secrets.map((s) => s.kind)).size} kinds`,
);

const measured = { read: {}, grep: {}, bash: {} };
let readText = "";
let bashText = "";
for (const file of libraries) readText += await readAll(file.name);
bashText += await bashAll(libraries);
measured.read.code = redactedLines(readText, "read");
measured.bash.code = redactedLines(bashText, "bash");
measured.grep.code = redactedLines(await grepAll(GREP_PATTERN, "lib"), "grep");

let plantedRead = "";
let plantedBash = "";
for (const [name, text] of plantedFiles(secrets)) {
  plantedRead += await readAll(join("planted", name));
  plantedBash += await bashAll([{ name: join("planted", name), text }]);
}
measured.read.exposed = exposed(plantedRead, "read");
measured.bash.exposed = exposed(plantedBash, "bash");
measured.grep.exposed = exposed(await grepAll(".", "planted"), "grep");

for (const [toolName, m] of Object.entries(measured)) {
  report.measure({
    case: toolName,
    metric: "reviewed real secrets in library code hidden",
    unit: "lines",
    value: m.code.real,
    params: { reviewed: REAL_SECRETS.length },
  });
  report.measure({
    case: toolName,
    metric: "code lines redacted",
    unit: "lines",
    value: m.code.code,
    target: { op: "<=", value: 0, of: "value" },
    params: { codeLines },
  });
  report.measure({
    case: toolName,
    metric: "planted secrets exposed",
    unit: "secrets",
    value: m.exposed,
    target: { op: "<=", value: 0, of: "value" },
    params: { planted: secrets.length },
  });
}
await rm(dir, { recursive: true, force: true });
