import type { LanguageModel } from "ai";
import { importOptional } from "./import-adapter.js";
import { UsageError } from "./usage-error.js";

/** A provider `tackle run --model` knows by name: its AI SDK package and where its key comes from. */
interface KnownProvider {
  /** The AI SDK provider package. */
  package: string;
  /** Its factory export (`createAnthropic`, ...). */
  factory: string;
  /** The environment variable the provider's key is read from; absent: no key needed. */
  keyVariable?: string;
  /** `--base-url` is required (servers that have no default address). */
  needsBaseUrl?: boolean;
}

/**
 * The providers named in `--model provider:id`. Any other name `x` loads the package
 * `@ai-sdk/x` and uses its provider as it configures itself (its key from its own variable).
 */
export const KNOWN_PROVIDERS: Record<string, KnownProvider> = {
  openai: { package: "@ai-sdk/openai", factory: "createOpenAI", keyVariable: "OPENAI_API_KEY" },
  anthropic: { package: "@ai-sdk/anthropic", factory: "createAnthropic", keyVariable: "ANTHROPIC_API_KEY" },
  google: {
    package: "@ai-sdk/google",
    factory: "createGoogleGenerativeAI",
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
  },
  mistral: { package: "@ai-sdk/mistral", factory: "createMistral", keyVariable: "MISTRAL_API_KEY" },
  groq: { package: "@ai-sdk/groq", factory: "createGroq", keyVariable: "GROQ_API_KEY" },
  xai: { package: "@ai-sdk/xai", factory: "createXai", keyVariable: "XAI_API_KEY" },
  deepseek: { package: "@ai-sdk/deepseek", factory: "createDeepSeek", keyVariable: "DEEPSEEK_API_KEY" },
  gateway: { package: "ai", factory: "createGateway", keyVariable: "AI_GATEWAY_API_KEY" },
  // Ollama, vLLM, LM Studio and other servers that speak OpenAI's Chat Completions API. Most need
  // no key; OPENAI_COMPATIBLE_API_KEY is sent when set (never OPENAI_API_KEY: that one is for OpenAI).
  "openai-compatible": {
    package: "@ai-sdk/openai-compatible",
    factory: "createOpenAICompatible",
    needsBaseUrl: true,
  },
};

/** The key variable of openai-compatible servers that want one. */
export const OPENAI_COMPATIBLE_KEY_VARIABLE = "OPENAI_COMPATIBLE_API_KEY";

/** `provider:id` split; the id may itself hold colons (`ollama` tags such as `qwen3:8b`). */
export function parseModelSpec(spec: string): { provider: string; id: string } {
  const colon = spec.indexOf(":");
  const provider = colon > 0 ? spec.slice(0, colon).trim() : "";
  const id = colon > 0 ? spec.slice(colon + 1).trim() : "";
  if (!/^[a-z][a-z0-9-]*$/.test(provider) || id === "") {
    throw new UsageError(
      `--model takes provider:model-id, e.g. anthropic:claude-sonnet-4-5, openai:gpt-4.1 or openai-compatible:qwen3 --base-url http://127.0.0.1:11434/v1; got "${spec}".`,
    );
  }
  return { provider, id };
}

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  /** `--base-url`: the provider's API address (a proxy, a local server). */
  baseUrl?: string | undefined;
  /** Where keys are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

type ProviderFactory = (settings: Record<string, unknown>) => (modelId: string) => LanguageModel;

/**
 * The AI SDK language model `--model provider:id` names. The provider package is imported on
 * demand (a usage error names the package to install when it is missing), and the key is read
 * from the provider's usual environment variable (a usage error names the variable when it is
 * not set).
 */
export async function loadModel(spec: string, options: LoadModelOptions = {}): Promise<LanguageModel> {
  const { provider, id } = parseModelSpec(spec);
  const env = options.env ?? process.env;
  const known = KNOWN_PROVIDERS[provider];
  const baseURL = options.baseUrl === undefined ? undefined : checkedBaseUrl(options.baseUrl);
  if (known === undefined) return loadOtherProvider(provider, id, spec, baseURL);
  if (known.needsBaseUrl && baseURL === undefined) {
    throw new UsageError(
      `--model ${spec} needs the server's address: add --base-url, e.g. --base-url http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:1234/v1 (LM Studio).`,
    );
  }
  const settings: Record<string, unknown> = {};
  if (baseURL !== undefined) settings.baseURL = baseURL;
  if (known.keyVariable !== undefined) {
    const key = env[known.keyVariable];
    if (!key) {
      throw new UsageError(
        `--model ${spec} needs an API key: set ${known.keyVariable} (export ${known.keyVariable}=...), or pick another --model.`,
      );
    }
    settings.apiKey = key;
  }
  if (provider === "openai-compatible") {
    settings.name = "openai-compatible";
    settings.includeUsage = true;
    const key = env[OPENAI_COMPATIBLE_KEY_VARIABLE];
    if (key) settings.apiKey = key;
  }
  const module = await importOptional<Record<string, unknown>>(known.package, `--model ${provider}:...`);
  const factory = module[known.factory] as ProviderFactory | undefined;
  if (typeof factory !== "function") {
    throw new UsageError(
      `${known.package} has no ${known.factory}: update it (npm install ${known.package}@latest).`,
    );
  }
  return factory(settings)(id);
}

/** A provider by its package name alone: `@ai-sdk/<name>`, configured from its own environment variables. */
async function loadOtherProvider(
  provider: string,
  id: string,
  spec: string,
  baseURL: string | undefined,
): Promise<LanguageModel> {
  const name = `@ai-sdk/${provider}`;
  const module = await importOptional<Record<string, unknown>>(name, `--model ${provider}:...`);
  const factories = Object.entries(module).filter(
    ([key, value]) => key.startsWith("create") && typeof value === "function",
  );
  if (factories.length !== 1) {
    throw new UsageError(
      `--model ${spec}: ${name} does not have exactly one create... provider function, so tackle cannot tell how to make its model. Use a provider tackle knows (${Object.keys(KNOWN_PROVIDERS).join(", ")}).`,
    );
  }
  const factory = factories[0]![1] as ProviderFactory;
  return factory(baseURL === undefined ? {} : { baseURL })(id);
}

function checkedBaseUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return text.replace(/\/+$/, "");
  } catch {
    // reported below
  }
  throw new UsageError(`--base-url takes an http(s) URL such as http://127.0.0.1:11434/v1; got "${text}".`);
}
