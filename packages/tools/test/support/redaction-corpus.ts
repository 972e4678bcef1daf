/**
 * A small fixed redaction corpus for the suite (the bench builds a large one from installed
 * libraries): auth code of the kinds real libraries hold, where no line is a secret, and planted
 * secrets of every documented kind in the file types the rules distinguish.
 */
import type { RedactionKind } from "@tackle/session";

/** Source files of ordinary auth code: every line must come out of every tool unchanged. */
export const AUTH_CODE: Record<string, string> = {
  "src/oauth-client.ts": `import { randomToken, parseKey } from "./crypto.js";

export async function exchange(cfg: Config, req: Request): Promise<Tokens> {
  const token = randomToken();
  const privateKey = parseKey(cfg.privateKey);
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: cfg.clientId,
    client_secret: clientSecret,
    code_verifier: verifier,
  });
  req.auth = authInfo;
  const apiKey = process.env.OPENAI_API_KEY ?? options.apiKey;
  const secretKey = await loadSecret(cfg.secretName);
  const accessToken = tokens.access_token;
  const refreshToken = tokens?.refresh_token || "";
  let password: string | undefined = undefined;
  const headers = { authorization: \`Bearer \${accessToken}\`, "x-api-key": apiKey };
  if (auth === "basic") headers.authorization = "Basic " + btoa(\`\${user}:\${password}\`);
  const tokenType = "Bearer";
  const proxyAuthorization = "proxy-authorization";
  const names = { apiKey: "x-api-key", sessionToken: "x-amz-security-token" };
  Object.defineProperties(Request.prototype, { credentials: kEnumerableProperty });
  const PASSWORD_MIN = 12;
  const secret = options.secret ?? defaultSecret;
  const credentials = { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey };
  const authHeader = req.headers["authorization"];
  const key = await crypto.subtle.importKey("raw", keyBytes, "HMAC", false, ["sign"]);
  const sessionToken = cookies.get("session_token")?.value;
  const url = \`https://\${user}:\${pass}@\${host}/repo.git\`;
  const PEM_HEADER = "-----BEGIN PRIVATE KEY-----";
  const isKey = /-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(text);
  return { token, privateKey, apiKey: apiKey, expiresIn: 3600 };
}
`,
  "src/auth.py": `import os

def login(session, username, password):
    token = session.post("/login", data={"user": username, "password": password}).json()["token"]
    api_key = os.environ["API_KEY"]
    secret_key = settings.SECRET_KEY
    self.password = password
    auth = HTTPBasicAuth(username, password)
    headers = {"Authorization": f"Bearer {token}"}
    return token
`,
  "src/server.go": `package auth

func New(cfg Config) *Client {
	token := cfg.Token
	secret := os.Getenv("CLIENT_SECRET")
	privateKey, err := ssh.ParsePrivateKey(keyBytes)
	return &Client{Token: token, Secret: secret, Auth: authFunc}
}
`,
  "docs/setup.md": `Set the token with \`export GITHUB_TOKEN=<token>\` or put \`API_KEY=\${API_KEY}\` in .env.
The password field defaults to \`changeme\`; never commit \`password: xxx\`.
Clone with https://user:pass@example.com/repo.git (replace user and pass).
Send \`Authorization: Bearer <token>\` on each call.
`,
  "config/example.yaml": `database:
  password: \${DB_PASSWORD}
  token: ""
  secret: changeme
auth: required
api_key: <your-api-key>
private_key_path: /etc/ssl/private/key.pem
token_url: https://auth.example.com/oauth/token
`,
};

/** A planted secret: `value` must not reach the model; `file` holds `line`. */
export interface PlantedSecret {
  kind: RedactionKind;
  value: string;
  file: string;
  line: string;
}

const PEM = [
  "MIIEowIBAAKCAQEAv3Fz9Qk2mXy7pR0wZsLHcT8nB4aE1dK6uJ5gV9oW2iN7yQ3e",
  "Xr8sD1fG4hJ6kL9zC2vB5nM7qW0eR3tY6uI9oP1aS4dF7gH0jK3lZ6xC9vB2nM5",
  "Qw8eR1tY4uI7oP0aS3dF6gH9jK2lZ5xC8vB1nM4qW7eR0tY3uI6oP9aS2dF5g==",
];

/** One or more planted secrets of every kind in REDACTION_KINDS. */
export const PLANTED: PlantedSecret[] = [
  {
    kind: "aws-access-key",
    value: "AKIAZ7Q3XK2LMP9RT4WB",
    file: ".env",
    line: "AWS_ACCESS_KEY_ID=AKIAZ7Q3XK2LMP9RT4WB",
  },
  {
    kind: "assignment",
    value: "q9Xr2Lk7Vb1Nm4Tz8Wc3Yd6Pf0Hs5Jg2Ke7Ra1U",
    file: ".env",
    line: "AWS_SECRET_ACCESS_KEY=q9Xr2Lk7Vb1Nm4Tz8Wc3Yd6Pf0Hs5Jg2Ke7Ra1U",
  },
  { kind: "assignment", value: "hunter2-Tr0ub4dor!", file: ".env", line: "DB_PASSWORD=hunter2-Tr0ub4dor!" },
  {
    kind: "google-api-key",
    value: "AIzaSyB7x2Kq9Lm4Np8Rt1Vw5Yz3Ac6Df0Gh2Jq",
    file: "src/maps.ts",
    line: 'export const MAPS = "AIzaSyB7x2Kq9Lm4Np8Rt1Vw5Yz3Ac6Df0Gh2Jq";',
  },
  {
    kind: "google-oauth-secret",
    value: "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",
    file: "oauth.json",
    line: '{ "client_secret": "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" }',
  },
  {
    kind: "google-oauth-token",
    value: "ya29.a0AfB_byC7xQ2kLm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0Ke",
    file: "deploy.log",
    line: "got ya29.a0AfB_byC7xQ2kLm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0Ke for the upload",
  },
  {
    kind: "azure-storage-key",
    value: "K7xQ2Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9Lm4Np8Rt1Vw5Yz3Ac6Df0Gh2JkLm4Np8Rt1Vw5Yz3Ac6Df0Gh2Jk==",
    file: "app.properties",
    line: "storage=DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=K7xQ2Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9Lm4Np8Rt1Vw5Yz3Ac6Df0Gh2JkLm4Np8Rt1Vw5Yz3Ac6Df0Gh2Jk==;EndpointSuffix=core.windows.net",
  },
  {
    kind: "azure-client-secret",
    value: "Xq27Q~Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9",
    file: "src/graph.ts",
    line: 'const credential = new ClientSecretCredential(tenant, client, "Xq27Q~Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9");',
  },
  {
    kind: "azure-sas",
    value: "Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9%2BAc6Df0%3D",
    file: "deploy.log",
    line: "GET https://acme.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9%2BAc6Df0%3D",
  },
  {
    kind: "github-token",
    value: "ghp_Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2q",
    file: "ci.sh",
    line: "git clone https://x-access-token:ghp_Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2q@github.com/o/r.git",
  },
  {
    kind: "gitlab-token",
    value: "glpat-Xr8sD1fG4hJ6kL9zC2vB",
    file: "config.yaml",
    line: "gitlab: { pat: glpat-Xr8sD1fG4hJ6kL9zC2vB }",
  },
  {
    kind: "slack-token",
    value: "xoxb-2048193847-4093817263-Qw8eR1tY4uI7oP0aS3dF6gH9",
    file: "config.toml",
    line: 'bot = "xoxb-2048193847-4093817263-Qw8eR1tY4uI7oP0aS3dF6gH9"',
  },
  {
    kind: "stripe-key",
    value: "sk_live_51Hq7xK2mL9rT4vW1yZ6nD3pF8hS5jG0k",
    file: "src/billing.ts",
    line: 'const stripe = new Stripe("sk_live_51Hq7xK2mL9rT4vW1yZ6nD3pF8hS5jG0k");',
  },
  {
    kind: "anthropic-key",
    value: "sk-ant-api03-Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2qLm9Rt4Vw1Yz6Nd3Pf8Hs5AA",
    file: "deploy.log",
    line: "export ANTHROPIC=sk-ant-api03-Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2qLm9Rt4Vw1Yz6Nd3Pf8Hs5AA",
  },
  {
    kind: "openai-key",
    value: "sk-proj-Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9Ac6Df0Gh2J",
    file: "settings.json",
    line: '{ "openai": { "key": "sk-proj-Lm9Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9Ac6Df0Gh2J" } }',
  },
  {
    kind: "npm-token",
    value: "npm_Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2q",
    file: ".npmrc",
    line: "//registry.npmjs.org/:_authToken=npm_Q7xK2mL9rT4vW1yZ6nD3pF8hS5jG0kEb7X2q",
  },
  {
    kind: "jwt",
    value:
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXBsb3kiLCJpYXQiOjE3MDB9.Qw8eR1tY4uI7oP0aS3dF6gH9jK2lZ5xC8vB1nM4",
    file: "deploy.log",
    line: "cookie session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXBsb3kiLCJpYXQiOjE3MDB9.Qw8eR1tY4uI7oP0aS3dF6gH9jK2lZ5xC8vB1nM4; Path=/",
  },
  {
    kind: "url-credentials",
    value: "Vb1Nm4Tz8Wc3",
    file: "app.ini",
    line: "url = postgres://app:Vb1Nm4Tz8Wc3@db.internal:5432/app",
  },
  {
    kind: "bearer",
    value: "Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9",
    file: "deploy.log",
    line: "> Authorization: Bearer Rt4Vw1Yz6Nd3Pf8Hs5Jg0KeB7x2Kq9",
  },
  {
    kind: "basic-auth",
    value: "ZGVwbG95OlE3eEsybUw5clQ0dlcx",
    file: "deploy.log",
    line: "> authorization: Basic ZGVwbG95OlE3eEsybUw5clQ0dlcx",
  },
  {
    kind: "assignment",
    value: "Pf8Hs5Jg0KeB7x2Kq9Ac",
    file: "config.yaml",
    line: '  password: "Pf8Hs5Jg0KeB7x2Kq9Ac"',
  },
  {
    kind: "assignment",
    value: "9f86d081884c7d659a2feaa0c55ad015",
    file: "settings.json",
    line: '{ "client_secret": "9f86d081884c7d659a2feaa0c55ad015" }',
  },
  {
    kind: "assignment",
    value: "Yz6Nd3Pf8Hs5Jg0KeB7x",
    file: "app.ini",
    line: "api_key = Yz6Nd3Pf8Hs5Jg0KeB7x",
  },
  {
    kind: "assignment",
    value: "Kq9Ac6Df0Gh2JkLm4Np8",
    file: "app.properties",
    line: "spring.datasource.password=Kq9Ac6Df0Gh2JkLm4Np8",
  },
  {
    kind: "assignment",
    value: "Nd3Pf8Hs5Jg0KeB7x2Kq9Ac6",
    file: "ci.sh",
    line: "export DEPLOY_TOKEN=Nd3Pf8Hs5Jg0KeB7x2Kq9Ac6",
  },
  {
    kind: "assignment",
    value: "w8#Lm9Rt4Vw1Yz6",
    file: "src/settings.py",
    line: "SECRET_KEY = 'w8#Lm9Rt4Vw1Yz6'",
  },
  ...PEM.map((value) => ({ kind: "private-key" as const, value, file: "id_rsa", line: value })),
];

/** The planted files: the private key file gets its markers around its body lines. */
export function plantedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const secret of PLANTED) files.set(secret.file, `${files.get(secret.file) ?? ""}${secret.line}\n`);
  files.set(
    "id_rsa",
    `-----BEGIN RSA PRIVATE KEY-----\n${files.get("id_rsa")}-----END RSA PRIVATE KEY-----\n`,
  );
  return files;
}
