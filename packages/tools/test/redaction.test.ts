/**
 * The redaction engine hides values, not names: known secret formats anywhere, literal secrets
 * assigned to secret-like names, private key bodies; never code. Through the real read, grep and
 * bash tools on real files in a temp dir: 0 lines of code redacted, 0 planted secrets exposed.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { type ToolSession, wrapToolDefinition } from "@tackle/extensions";
import { REDACTION_KINDS, redactionSourceOf, redactLines, redactSecrets } from "@tackle/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { sanitizeOutput } from "../src/shell/sanitize.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import { createGrepToolDefinition } from "../src/tools/grep.js";
import { createReadToolDefinition } from "../src/tools/read.js";
import { AUTH_CODE, PLANTED, plantedFiles } from "./support/redaction-corpus.js";

const DOCS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "docs", "redaction.md");
const PLACEHOLDER = /\[REDACTED:(?!kind\])[a-z0-9-]+\]/;

let dir: string;
let ctx: ToolSession;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-redaction-")));
  const files = new Map<string, string>([
    ...Object.entries(AUTH_CODE).map(([name, text]) => [`code/${name}`, text] as const),
  ]);
  for (const [name, text] of plantedFiles()) files.set(`planted/${name}`, text);
  for (const [name, text] of files) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  ctx = createLocalToolContext({ cwd: dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = () => wrapToolDefinition(createReadToolDefinition(), () => ctx);
const grep = () => wrapToolDefinition(createGrepToolDefinition(), () => ctx);
const bash = () => wrapToolDefinition(createBashToolDefinition(), () => ctx);

function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The file lines of a read result (line numbers and marker taken off). */
function readLines(outcome: ToolOutcome): string[] {
  return textOf(outcome)
    .split("\n")
    .filter((line) => /^ *\d+\t/.test(line))
    .map((line) => line.replace(/^ *\d+\t/, ""));
}

/** The output lines of a bash result (marker and notices taken off). */
function bashLines(outcome: ToolOutcome): string[] {
  const text = textOf(outcome);
  return text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n</tool-output>")).split("\n");
}

function exposedIn(text: string): string[] {
  return PLANTED.filter((secret) => text.includes(secret.value)).map(
    (secret) => `${secret.kind} in ${secret.file}`,
  );
}

describe("the redaction engine", () => {
  it("hides a planted secret of every kind it documents, as [REDACTED:<kind>]", async () => {
    for (const kind of REDACTION_KINDS)
      expect(
        PLANTED.some((secret) => secret.kind === kind),
        kind,
      ).toBe(true);
    const files = plantedFiles();
    for (const secret of PLANTED) {
      const lines = (files.get(secret.file) as string).split("\n");
      const out = redactLines(lines, redactionSourceOf(secret.file))[lines.indexOf(secret.line)] as string;
      expect(out, secret.line).not.toContain(secret.value);
      expect(out, secret.line).toContain(`[REDACTED:${secret.kind}]`);
    }
    const docs = await readFile(DOCS, "utf8");
    for (const kind of REDACTION_KINDS) expect(docs, kind).toContain(`| \`${kind}\` |`);
  });

  it("shows auth code unchanged in every kind of text: names, calls, members, identifiers, references", () => {
    for (const [name, text] of Object.entries(AUTH_CODE)) {
      const lines = text.split("\n");
      for (const source of [redactionSourceOf(name), "output"] as const) {
        expect(redactLines(lines, source), `${name} as ${source}`).toEqual(lines);
      }
    }
  });

  it("hides literals, not expressions: an unquoted value is code in source files, a literal in config", () => {
    expect(redactSecrets("const token = Xk9mP2vL8qR4nT7wZa3B;", "code")).toBe(
      "const token = Xk9mP2vL8qR4nT7wZa3B;",
    );
    expect(redactSecrets('const token = "Xk9mP2vL8qR4nT7wZa3B";', "code")).toBe(
      'const token = "[REDACTED:assignment]";',
    );
    expect(redactSecrets("TOKEN=Xk9mP2vL8qR4nT7wZa3B", "config")).toBe("TOKEN=[REDACTED:assignment]");
    // Output may be code or an env dump: a random run is a literal, a name that reads as words is not.
    expect(redactSecrets("TOKEN=Xk9mP2vL8qR4nT7wZa3B")).toBe("TOKEN=[REDACTED:assignment]");
    expect(redactSecrets("token = sessionTokenValue;")).toBe("token = sessionTokenValue;");
    expect(redactSecrets("password=hunter2-Tr0ub4dor!")).toBe("password=[REDACTED:assignment]");
    // Placeholders and references are never secrets, in any kind of text.
    for (const value of [
      "changeme",
      "xxx",
      "<token>",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal reference is the case under test
      "${VAR}",
      "$API_TOKEN",
      "process.env.TOKEN",
      "{{ .Values.token }}",
      '""',
    ]) {
      expect(redactSecrets(`API_TOKEN=${value}`, "config"), value).toBe(`API_TOKEN=${value}`);
    }
  });

  it("keeps a private key's markers and hides its body, also from a tail or window that starts inside it", () => {
    const key = [
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUA",
      "AAAAAA==",
      "-----END OPENSSH PRIVATE KEY-----",
    ];
    expect(redactLines(["x", ...key, "y"], "output")).toEqual([
      "x",
      key[0],
      "[REDACTED:private-key]",
      "[REDACTED:private-key]",
      key[3],
      "y",
    ]);
    expect(redactLines(key.slice(2), "output")).toEqual(["[REDACTED:private-key]", key[3]]);
    expect(sanitizeOutput(`${key.slice(1).join("\n")}\ndone`)).not.toContain("b3BlbnNz");
    // A marker inside code starts no block: the next lines are code.
    expect(redactLines(["const h = '-----BEGIN RSA PRIVATE KEY-----';", "return h"], "code")[1]).toBe(
      "return h",
    );
  });
});

describe("read, grep and bash on the corpus: 0 code lines redacted, 0 planted secrets exposed", () => {
  it("read", async () => {
    let code = 0;
    for (const name of Object.keys(AUTH_CODE)) {
      code += readLines(await invokeTool(read(), { path: `code/${name}` })).filter((l) =>
        PLACEHOLDER.test(l),
      ).length;
    }
    let planted = "";
    for (const name of plantedFiles().keys())
      planted += textOf(await invokeTool(read(), { path: `planted/${name}` }));
    expect(code).toBe(0);
    expect(exposedIn(planted)).toEqual([]);
  });

  it("grep", async () => {
    const code = textOf(
      await invokeTool(grep(), {
        pattern: "token|secret|key|auth|pass",
        path: "code",
        ignoreCase: true,
        limit: 500,
      }),
    );
    expect(code.split("\n").filter((line) => PLACEHOLDER.test(line))).toEqual([]);
    const planted = textOf(await invokeTool(grep(), { pattern: ".", path: "planted", limit: 500 }));
    expect(planted).toContain("[REDACTED:private-key]");
    expect(exposedIn(planted)).toEqual([]);
  });

  it("bash", async () => {
    const code = await invokeTool(bash(), { command: "cat code/src/* code/docs/* code/config/*" });
    expect(bashLines(code).filter((line) => PLACEHOLDER.test(line))).toEqual([]);
    const planted = textOf(
      await invokeTool(bash(), { command: "cat planted/* planted/.[a-z]* planted/src/*" }),
    );
    expect(planted).toContain("[REDACTED:private-key]");
    expect(exposedIn(planted)).toEqual([]);
  });

  it("read and bash cat of the same file show the same lines", async () => {
    const names = [
      ...Object.keys(AUTH_CODE).map((n) => `code/${n}`),
      ...[...plantedFiles().keys()].map((n) => `planted/${n}`),
    ];
    for (const name of names) {
      const shown = readLines(await invokeTool(read(), { path: name }));
      const catted = bashLines(await invokeTool(bash(), { command: `cat '${name}'` }));
      expect(catted.slice(0, shown.length), name).toEqual(shown);
    }
  });
});
