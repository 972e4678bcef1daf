import { describe, expect, it } from "vitest";
import { parseEnvUrl } from "../src/env-url.js";
import { kubernetesTarget } from "../src/kubernetes-environment.js";
import { UsageError } from "../src/usage-error.js";
import { EXIT, tackle } from "./helpers.js";

describe("--env k8s://[context/]namespace/pod[/container]", () => {
  it("keeps the parts as written, %-decoded", () => {
    expect(parseEnvUrl("k8s://agents/dev-0")).toEqual({ kind: "k8s", parts: ["agents", "dev-0"] });
    expect(parseEnvUrl("k8s://arn%3Aaws%3Aeks%3Aeu%2Fprod/agents/dev-0/main")).toEqual({
      kind: "k8s",
      parts: ["arn:aws:eks:eu/prod", "agents", "dev-0", "main"],
    });
  });

  it("refuses fewer than a namespace and a pod, more than four parts, and empty parts, showing the form", () => {
    for (const text of ["k8s://dev-0", "k8s://a/b/c/d/e", "k8s://agents//main", "k8s://%E0%A4%A/pod"]) {
      expect(() => parseEnvUrl(text)).toThrow(UsageError);
      expect(() => parseEnvUrl(text)).toThrow(/k8s:\/\/\[context\/\]namespace\/pod\[\/container\]/);
    }
  });

  it("reads three parts as context/namespace/pod only when the kubeconfig has that context", () => {
    expect(kubernetesTarget(["agents", "dev-0"], ["kind-dev"])).toEqual({
      namespace: "agents",
      pod: "dev-0",
    });
    expect(kubernetesTarget(["kind-dev", "agents", "dev-0"], ["kind-dev"])).toEqual({
      context: "kind-dev",
      namespace: "agents",
      pod: "dev-0",
    });
    expect(kubernetesTarget(["agents", "dev-0", "main"], ["kind-dev"])).toEqual({
      namespace: "agents",
      pod: "dev-0",
      container: "main",
    });
    expect(kubernetesTarget(["kind-dev", "agents", "dev-0", "main"], [])).toEqual({
      context: "kind-dev",
      namespace: "agents",
      pod: "dev-0",
      container: "main",
    });
  });

  it.runIf(Number(process.versions.node.split(".")[0]) < 22)(
    "on a Node older than the Kubernetes client needs, says so as a usage error before anything else",
    async () => {
      const result = await tackle(["tool", "bash", '{"command":"true"}', "--env", "k8s://agents/dev-0"]);
      expect(result.code).toBe(EXIT.usage);
      expect(result.stderr).toContain("needs Node 22.19 or newer");
      expect(result.stderr).toContain(process.versions.node);
    },
  );
});
