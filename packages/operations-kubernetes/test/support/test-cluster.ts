import Docker from "dockerode";
import { inject } from "vitest";
import {
  createKubernetesOperations,
  type KubernetesOperations,
  type KubernetesOperationsOptions,
} from "../../src/index.js";
import { LocalApiServer, type LocalPod } from "./local-api-server.js";

/** Keeps a container running, as a pod's main process does. */
const KEEP_ALIVE = ["sh", "-c", "while :; do sleep 3600; done"];

/** The local API endpoint plus the Docker containers that play its pods. */
export interface TestCluster {
  api: LocalApiServer;
  docker: Docker;
  /** Starts a container and serves it as pod `name` (one container, `main`, unless `containers` names more). */
  addPod(
    name: string,
    options?: Partial<Omit<LocalPod, "name" | "containers">> & { containers?: string[] },
  ): Promise<LocalPod>;
  /** An adapter on this cluster (kubeconfig of the endpoint, namespace `tackle`). */
  operations(options: Partial<KubernetesOperationsOptions>): KubernetesOperations;
  /** Runs `sh -c script` in a pod's container straight through Docker (to look from outside). */
  inContainer(pod: LocalPod, script: string): Promise<string>;
  stop(): Promise<void>;
}

export const NAMESPACE = "tackle";

/** Starts the endpoint on 127.0.0.1 over the private engine of the run. */
export async function startTestCluster(options: { v5?: boolean } = {}): Promise<TestCluster> {
  const docker = new Docker({ socketPath: inject("dockerSocket") });
  const api = new LocalApiServer(docker, options.v5 ?? true);
  await api.start();
  const containers: Docker.Container[] = [];
  return {
    api,
    docker,
    async addPod(name, podOptions = {}) {
      const ids: Record<string, string> = {};
      for (const containerName of podOptions.containers ?? ["main"]) {
        const container = await docker.createContainer({
          Image: inject("dockerImage"),
          Entrypoint: KEEP_ALIVE,
          Cmd: [],
          Labels: { "dev.tackle.k8s-test": "1" },
          HostConfig: { NetworkMode: "none", Init: true, ...hostConfigFor(podOptions.containerSpec) },
        });
        containers.push(container);
        await container.start();
        ids[containerName] = container.id;
      }
      const { containers: _names, ...rest } = podOptions;
      const pod: LocalPod = { namespace: NAMESPACE, ...rest, name, containers: ids };
      api.addPod(pod);
      return pod;
    },
    operations(adapterOptions) {
      return createKubernetesOperations({
        kubeconfig: api.kubeConfig({ namespace: NAMESPACE }),
        ...adapterOptions,
      } as KubernetesOperationsOptions);
    },
    async inContainer(pod, script) {
      const id = Object.values(pod.containers)[0] as string;
      const exec = await docker
        .getContainer(id)
        .exec({ Cmd: ["sh", "-c", script], AttachStdout: true, AttachStderr: true });
      const stream = await exec.start({ hijack: true, stdin: false });
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve, reject) => {
        const out = { write: (chunk: Buffer) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
        docker.modem.demuxStream(stream, out, out);
        stream.on("end", resolve);
        stream.on("error", reject);
      });
      return Buffer.concat(chunks).toString("utf8");
    },
    async stop() {
      await api.stop();
      await Promise.allSettled(containers.map((container) => container.remove({ force: true })));
    },
  };
}

/**
 * The Docker settings that play a container spec's `securityContext.readOnlyRootFilesystem` and
 * its writable `volumeMounts` (each an emptyDir: a tmpfs).
 */
function hostConfigFor(spec: Record<string, unknown> | undefined): Record<string, unknown> {
  const security = spec?.securityContext as { readOnlyRootFilesystem?: boolean } | undefined;
  if (!security?.readOnlyRootFilesystem) return {};
  const mounts = (spec?.volumeMounts ?? []) as { mountPath: string; readOnly?: boolean }[];
  const tmpfs = Object.fromEntries(
    mounts.filter((mount) => !mount.readOnly).map((mount) => [mount.mountPath, "rw,exec,mode=1777"]),
  );
  return { ReadonlyRootfs: true, Tmpfs: tmpfs };
}
