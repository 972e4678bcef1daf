import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import {
  checkPackageMetadata,
  derivedMetadata,
  ENGINE_FLOORS,
  writePackageMetadata,
} from "../scripts/package-metadata.mjs";
import { tempDirs } from "./temp-tree.js";

const root = path.resolve(import.meta.dirname, "..");
const temps = tempDirs();

const REPOSITORY = { type: "git", url: "git+https://github.com/example/project.git" };

function fakeRepo(packages: Record<string, Record<string, unknown>>, licenses: Record<string, string> = {}) {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ private: true, repository: REPOSITORY }),
    LICENSE: "MIT License\n",
  };
  for (const [name, manifest] of Object.entries(packages)) {
    files[`packages/${name}/package.json`] = JSON.stringify(manifest);
    const license = licenses[name];
    if (license !== undefined) files[`packages/${name}/LICENSE`] = license;
  }
  return temps.tree("tackle-metadata-", files);
}

const complete = (dirName: string) => ({
  name: `@x/${dirName}`,
  description: "A package.",
  keywords: ["tackle", "a", "b"],
  engines: { node: ">=22" },
  publishConfig: { access: "public" },
  files: ["dist", "src"],
  ...derivedMetadata({ repository: REPOSITORY }, dirName),
});

describe("package metadata", () => {
  it("every package of this repository has it", () => {
    expect(checkPackageMetadata(root)).toEqual([]);
  });

  it("holds a package whose dependencies need a newer Node to the floor ENGINE_FLOORS names, the rest to >=22", () => {
    const k8s = { ...complete("operations-kubernetes"), name: "@tackle/operations-kubernetes" };
    const messages = (packages: Record<string, Record<string, unknown>>) =>
      checkPackageMetadata(
        fakeRepo(packages, { "operations-kubernetes": "MIT License\n", other: "MIT License\n" }),
      ).map((p: { message: string }) => p.message);
    expect(ENGINE_FLOORS["@tackle/operations-kubernetes"]).toBe(">=22.19");
    expect(messages({ "operations-kubernetes": k8s })).toEqual(['engines.node must be ">=22.19"']);
    expect(messages({ "operations-kubernetes": { ...k8s, engines: { node: ">=22.19" } } })).toEqual([]);
    expect(messages({ other: { ...complete("other"), engines: { node: ">=22.19" } } })).toEqual([
      'engines.node must be ">=22"',
    ]);
  });

  it("derives repository, homepage and bugs from the root's repository URL", () => {
    expect(derivedMetadata({ repository: REPOSITORY }, "tools")).toEqual({
      license: "MIT",
      repository: { ...REPOSITORY, directory: "packages/tools" },
      homepage: "https://github.com/example/project/tree/main/packages/tools#readme",
      bugs: { url: "https://github.com/example/project/issues" },
    });
  });

  it("reports each missing piece, skips private packages, and --write fills in what it can derive", () => {
    const repo = fakeRepo(
      {
        good: complete("good"),
        bare: { name: "@x/bare", files: ["dist"] },
        secret: { name: "@x/secret", private: true },
      },
      { good: "MIT License\n", bare: "other text" },
    );
    const messages = checkPackageMetadata(repo).map((p: { package: string; message: string }) => p.message);
    expect(checkPackageMetadata(repo).every((p: { package: string }) => p.package === "@x/bare")).toBe(true);
    expect(messages.map((m: string) => m.split(" ")[0])).toEqual([
      "license",
      "repository",
      "homepage",
      "bugs",
      "LICENSE",
      "keywords",
      "description",
      "engines.node",
      "publishConfig.access",
      "files",
    ]);
    writePackageMetadata(repo);
    const left = checkPackageMetadata(repo).map((p: { message: string }) => p.message.split(" ")[0]);
    expect(left).toEqual(["keywords", "description", "engines.node", "publishConfig.access", "files"]);
  });
});
