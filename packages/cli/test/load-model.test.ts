import { describe, expect, it } from "vitest";
import { loadModel, parseModelSpec } from "../src/load-model.js";
import { UsageError } from "../src/usage-error.js";

/** The provider model behind what loadModel returns (provider packages give objects, not ids). */
async function load(spec: string, options: Parameters<typeof loadModel>[1] = {}) {
  return (await loadModel(spec, options)) as {
    provider: string;
    modelId: string;
    specificationVersion: string;
  };
}

describe("--model provider:id", () => {
  it("splits at the first colon, so model ids keep theirs (ollama tags)", () => {
    expect(parseModelSpec("openai-compatible:qwen3:8b")).toEqual({
      provider: "openai-compatible",
      id: "qwen3:8b",
    });
    expect(parseModelSpec("anthropic:claude-sonnet-4-5")).toEqual({
      provider: "anthropic",
      id: "claude-sonnet-4-5",
    });
  });

  it.each(["gpt-4.1", ":gpt-4.1", "openai:", "Open AI:x"])("refuses %j with the form to use", (spec) => {
    expect(() => parseModelSpec(spec)).toThrow(UsageError);
    expect(() => parseModelSpec(spec)).toThrow(/--model takes provider:model-id, e\.g\. anthropic:/);
  });

  it("loads the provider packages with the key from the provider's variable", async () => {
    const env = { OPENAI_API_KEY: "sk-1", ANTHROPIC_API_KEY: "sk-ant-1", AI_GATEWAY_API_KEY: "gw-1" };
    expect(await load("openai:gpt-4.1", { env })).toMatchObject({
      provider: "openai.responses",
      modelId: "gpt-4.1",
      specificationVersion: "v4",
    });
    expect(await load("anthropic:claude-sonnet-4-5", { env })).toMatchObject({
      provider: "anthropic.messages",
      modelId: "claude-sonnet-4-5",
    });
    expect(await load("gateway:anthropic/claude-sonnet-4-5", { env })).toMatchObject({
      provider: "gateway",
      modelId: "anthropic/claude-sonnet-4-5",
    });
    expect(
      await load("openai-compatible:qwen3:8b", { env: {}, baseUrl: "http://127.0.0.1:11434/v1/" }),
    ).toMatchObject({ provider: "openai-compatible.chat", modelId: "qwen3:8b" });
  });

  it("a missing key names the variable to set", async () => {
    await expect(loadModel("anthropic:claude-sonnet-4-5", { env: {} })).rejects.toThrow(
      "--model anthropic:claude-sonnet-4-5 needs an API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=...), or pick another --model.",
    );
    await expect(loadModel("google:gemini-2.5-pro", { env: {} })).rejects.toThrow(
      /set GOOGLE_GENERATIVE_AI_API_KEY/,
    );
  });

  it("a provider package that is not installed is named with the command that installs it", async () => {
    await expect(loadModel("cohere:command-r", { env: {} })).rejects.toThrow(
      "--model cohere:... needs @ai-sdk/cohere, which is not installed. Run: npm install @ai-sdk/cohere",
    );
    await expect(
      loadModel("google:gemini-2.5-pro", { env: { GOOGLE_GENERATIVE_AI_API_KEY: "k" } }),
    ).rejects.toThrow("needs @ai-sdk/google, which is not installed. Run: npm install @ai-sdk/google");
  });

  it("openai-compatible needs --base-url; --base-url must be an http(s) URL", async () => {
    await expect(loadModel("openai-compatible:qwen3", { env: {} })).rejects.toThrow(
      /needs the server's address: add --base-url/,
    );
    await expect(
      loadModel("anthropic:x", { env: { ANTHROPIC_API_KEY: "k" }, baseUrl: "localhost:8080" }),
    ).rejects.toThrow(
      '--base-url takes an http(s) URL such as http://127.0.0.1:11434/v1; got "localhost:8080".',
    );
  });
});
