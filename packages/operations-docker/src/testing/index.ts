/**
 * `@tackle/operations-docker/testing`: a private Docker engine and a minimal image built from
 * this machine's files, for tests and benchmarks that need a real engine (root required).
 */
export { type EngineCertificates, generateEngineCertificates } from "./engine-certificates.js";
export { IMAGE_TEST_USER, importMinimalImage, type MinimalImageOptions } from "./minimal-image.js";
export {
  ENGINE_NETWORK_FLAGS,
  type PrivateEngine,
  type PrivateEngineOptions,
  readEngineLog,
  startPrivateEngine,
} from "./private-engine.js";
