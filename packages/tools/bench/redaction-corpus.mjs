// The redaction bench's corpus, built at run time and never committed: (1) real source files of
// auth-heavy libraries installed in the workspace's pnpm store, picked by path (ssh2, the MCP SDK,
// undici, jose, the AI SDK's provider utils, the OpenAI and Anthropic SDKs, express); every line of
// them is code, so a placeholder in their output is a line of code hidden from the model; (2)
// planted secrets of every kind docs/redaction.md lists, freshly random on each run, in the file
// types the rules distinguish (env, YAML, JSON, INI, TOML, properties, shell, code, logs).
import { randomBytes, randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const STORE = join(ROOT, "node_modules", ".pnpm");

/** Library folders to read, by package name and a folder inside the package. */
const LIBRARIES = [
  ["ssh2", "lib"],
  ["@modelcontextprotocol/sdk", "dist/esm"],
  ["undici", "lib"],
  ["jose", "dist/webapi"],
  ["@ai-sdk/provider-utils", "dist"],
  ["openai", "internal"],
  ["openai", "lib"],
  ["@anthropic-ai/sdk", "internal"],
  ["@anthropic-ai/sdk", "lib"],
  ["express", "lib"],
];

/** The newest stored version of `name` in the pnpm store, or undefined when it is not installed. */
function packageDir(name) {
  const prefix = `${name.replace("/", "+")}@`;
  const found = existsSync(STORE)
    ? readdirSync(STORE)
        .filter((entry) => entry.startsWith(prefix))
        .sort()
    : [];
  const last = found.at(-1);
  return last ? join(STORE, last, "node_modules", name) : undefined;
}

function walk(dir, out) {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(?:m?js|cjs)$/.test(entry)) out.push(path);
  }
  return out;
}

/**
 * Library source files: `{ name, path, text }`, `name` being `<package>/<file>` (where the corpus
 * copy goes). Files of one line over 2,000 characters (bundles) are left out: tools cut such lines.
 */
export function libraryFiles() {
  const files = [];
  for (const [name, folder] of LIBRARIES) {
    const dir = packageDir(name);
    if (!dir || !existsSync(join(dir, folder))) continue;
    for (const path of walk(join(dir, folder), [])) {
      const text = readFileSync(path, "utf8");
      if (text.split("\n").some((line) => line.length > 2000)) continue;
      files.push({ name: join("lib", name.replace("/", "+"), relative(dir, path)), path, text });
    }
  }
  return files;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function pick(alphabet, length) {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

const alnum = (n) => pick(ALNUM, n);
const upperDigits = (n) => pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n);
const base64 = (bytes) => randomBytes(bytes).toString("base64");
const base64url = (bytes) => randomBytes(bytes).toString("base64url");
const hex = (bytes) => randomBytes(bytes).toString("hex");

function pemBody(bytes) {
  return base64(bytes).match(/.{1,64}/g);
}

/**
 * Planted secrets, one or more per documented kind: `{ kind, value, files }` where `files` maps a
 * corpus file name to the line(s) that hold the value. `value` is what must never reach the model
 * (for a private key: each body line).
 */
export function plantedSecrets() {
  const jwt = `eyJ${base64url(18)}.eyJ${base64url(30)}.${base64url(32)}`;
  const keyLines = pemBody(300);
  const sshLines = pemBody(200);
  const secrets = [
    ["aws-access-key", `AKIA${upperDigits(16)}`, (v) => [`config.env`, `AWS_ACCESS_KEY_ID=${v}`]],
    [
      "aws-access-key",
      `ASIA${upperDigits(16)}`,
      (v) => [`deploy.log`, `using temporary credentials ${v} for s3`],
    ],
    ["assignment", base64(30), (v) => [`config.env`, `AWS_SECRET_ACCESS_KEY=${v}`]],
    ["google-api-key", `AIza${pick(`${ALNUM}_-`, 35)}`, (v) => [`src/maps.ts`, `const MAPS = "${v}";`]],
    [
      "google-oauth-secret",
      `GOCSPX-${pick(`${ALNUM}_-`, 28)}`,
      (v) => [`oauth.json`, `  "client_secret": "${v}",`],
    ],
    ["google-oauth-token", `ya29.${pick(`${ALNUM}_-`, 120)}`, (v) => [`deploy.log`, `token ok: ${v}`]],
    [
      "azure-storage-key",
      base64(64),
      (v) => [
        `app.properties`,
        `storage=DefaultEndpointsProtocol=https;AccountName=acct${hex(3)};AccountKey=${v};EndpointSuffix=core.windows.net`,
      ],
    ],
    [
      "azure-client-secret",
      `${pick(ALNUM, 3)}${randomInt(10)}Q~${pick(`${ALNUM}_~.-`, 34)}`,
      (v) => [`src/graph.ts`, `const credential = new ClientSecretCredential(tenant, client, "${v}");`],
    ],
    [
      "azure-sas",
      base64(32),
      (v) => [
        `deploy.log`,
        `GET https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=${encodeURIComponent(v)}`,
      ],
    ],
    [
      "github-token",
      `ghp_${alnum(36)}`,
      (v) => [`ci.sh`, `git clone https://x-access-token:${v}@github.com/o/r.git`],
    ],
    [
      "github-token",
      `github_pat_${pick(`${ALNUM}_`, 82)}`,
      (v) => [`src/client.ts`, `const octo = new Octokit({ auth: "${v}" });`],
    ],
    [
      "gitlab-token",
      `glpat-${pick(`${ALNUM}_-`, 20)}`,
      (v) => [`config.yaml`, `gitlab: { url: https://gitlab.example.com, pat: ${v} }`],
    ],
    [
      "slack-token",
      `xoxb-${randomInt(1e9, 1e10)}-${randomInt(1e9, 1e10)}-${alnum(24)}`,
      (v) => [`config.toml`, `[slack]\nbot = "${v}"`],
    ],
    ["stripe-key", `sk_live_${alnum(99)}`, (v) => [`src/billing.ts`, `const stripe = new Stripe("${v}");`]],
    ["stripe-key", `whsec_${alnum(32)}`, (v) => [`config.env`, `STRIPE_WEBHOOK=${v}`]],
    [
      "openai-key",
      `sk-proj-${pick(`${ALNUM}_-`, 120)}`,
      (v) => [`settings.json`, `{ "openai": { "key": "${v}" } }`],
    ],
    [
      "anthropic-key",
      `sk-ant-api03-${pick(`${ALNUM}_-`, 93)}AA`,
      (v) => [`deploy.log`, `export ANTHROPIC=${v}`],
    ],
    ["npm-token", `npm_${alnum(36)}`, (v) => [`.npmrc`, `//registry.npmjs.org/:_authToken=${v}`]],
    ["jwt", jwt, (v) => [`deploy.log`, `cookie session=${v}; Path=/`]],
    [
      "url-credentials",
      `${alnum(10)}${hex(4)}`,
      (v) => [`app.ini`, `[db]\nurl = postgres://app:${v}@db.internal:5432/app`],
    ],
    ["bearer", base64url(40), (v) => [`deploy.log`, `> Authorization: Bearer ${v}`]],
    [
      "basic-auth",
      Buffer.from(`deploy:${alnum(16)}`).toString("base64"),
      (v) => [`deploy.log`, `> authorization: Basic ${v}`],
    ],
    ["assignment", `${alnum(6)}-${alnum(6)}!${randomInt(100)}`, (v) => [`config.env`, `DB_PASSWORD=${v}`]],
    ["assignment", alnum(24), (v) => [`config.yaml`, `database:\n  password: "${v}"`]],
    ["assignment", hex(20), (v) => [`settings.json`, `{ "auth": { "client_secret": "${v}" } }`]],
    ["assignment", alnum(20), (v) => [`app.ini`, `[api]\napi_key = ${v}`]],
    ["assignment", base64url(24), (v) => [`config.toml`, `[auth]\ntoken = '${v}'`]],
    ["assignment", alnum(18), (v) => [`app.properties`, `spring.datasource.password=${v}`]],
    ["assignment", alnum(32), (v) => [`ci.sh`, `export DEPLOY_TOKEN=${v}`]],
    ["assignment", `${alnum(8)}#${hex(6)}`, (v) => [`src/settings.py`, `SECRET_KEY = '${v}'`]],
  ].map(([kind, value, place]) => {
    const [file, text] = place(value);
    return { kind, values: [value], file, text };
  });
  secrets.push({
    kind: "private-key",
    values: keyLines,
    file: "id_rsa",
    text: ["-----BEGIN RSA PRIVATE KEY-----", ...keyLines, "-----END RSA PRIVATE KEY-----"].join("\n"),
  });
  secrets.push({
    kind: "private-key",
    values: sshLines,
    file: "config.yaml",
    text: [
      "deploy_key: |",
      "  -----BEGIN OPENSSH PRIVATE KEY-----",
      ...sshLines.map((l) => `  ${l}`),
      "  -----END OPENSSH PRIVATE KEY-----",
    ].join("\n"),
  });
  const inline = base64(180);
  secrets.push({
    kind: "private-key",
    values: [inline.slice(0, 40), inline.slice(-40)],
    file: "service-account.json",
    text: `{ "type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${inline}\\n-----END PRIVATE KEY-----\\n" }`,
  });
  return secrets;
}

/** The planted files: name → text, each secret's lines appended to its file. */
export function plantedFiles(secrets) {
  const files = new Map();
  for (const secret of secrets) files.set(secret.file, `${files.get(secret.file) ?? ""}${secret.text}\n`);
  return files;
}
