import { gateway, type LanguageModel } from "ai";

/**
 * The language model specifications this adapter speaks: `v2` (AI SDK 5 providers), `v3`
 * (AI SDK 6, `@ai-sdk/*` 3.x) and `v4` (AI SDK 7, `@ai-sdk/*` 4.x). They agree on the stream
 * parts and prompt messages read and written here, except where `normalize-part.ts` and
 * `provider-prompt.ts` say otherwise.
 */
export type SpecVersion = "v2" | "v3" | "v4";

/** The part of a provider's language model this adapter calls. */
export interface ProviderLanguageModel {
  readonly specificationVersion: SpecVersion;
  readonly provider: string;
  readonly modelId: string;
  doStream(options: Record<string, unknown>): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** Thrown when a model speaks a specification this adapter does not know. */
export class UnsupportedModelError extends Error {
  override readonly name = "UnsupportedModelError";
  readonly code = "unsupported_model";
  readonly specificationVersion: unknown;

  constructor(specificationVersion: unknown, provider: unknown) {
    super(
      `Model of ${String(provider)} speaks specification ${String(specificationVersion)}; aiSdkModel speaks v2, v3 and v4 (AI SDK 5 to 7 provider packages). Update the provider package.`,
    );
    this.specificationVersion = specificationVersion;
  }
}

/**
 * The provider model behind an AI SDK `LanguageModel`: the model itself, or, for a model id
 * string, the model of the global default provider (`globalThis.AI_SDK_DEFAULT_PROVIDER`, else
 * the AI Gateway), as the AI SDK resolves it.
 */
export function resolveLanguageModel(languageModel: LanguageModel): ProviderLanguageModel {
  const resolved =
    typeof languageModel === "string" ? defaultProvider().languageModel(languageModel) : languageModel;
  const version = (resolved as { specificationVersion?: unknown }).specificationVersion;
  if (version !== "v2" && version !== "v3" && version !== "v4") {
    throw new UnsupportedModelError(version, (resolved as { provider?: unknown }).provider);
  }
  return resolved as unknown as ProviderLanguageModel;
}

function defaultProvider(): { languageModel(id: string): unknown } {
  const configured = (globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): unknown } })
    .AI_SDK_DEFAULT_PROVIDER;
  return configured ?? gateway;
}
