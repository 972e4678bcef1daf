import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { Writable } from "node:stream";
import { KubeConfig } from "@kubernetes/client-node";
import { generateEngineCertificates } from "@tackle/operations-docker/testing";
import type Docker from "dockerode";
import { type WebSocket, WebSocketServer } from "ws";
import { execStatus, failureStatus, notFound, UNAUTHORIZED } from "./api-status.js";
import { matchesSelector } from "./label-selector.js";

/** A pod the endpoint serves: its containers are containers of the test's Docker engine. */
export interface LocalPod {
  name: string;
  namespace: string;
  /** Container name in the pod -> Docker container id. */
  containers: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Default `Running`. */
  phase?: string;
  /** Extra fields of every container's spec (`securityContext`, `volumeMounts`). */
  containerSpec?: Record<string, unknown>;
}

/** An agent-sandbox object the endpoint serves. */
export interface LocalSandboxObject {
  kind: "sandbox" | "claim";
  name: string;
  namespace: string;
  ready: boolean;
  /** Sandbox: the adopted pod (the `agents.x-k8s.io/pod-name` annotation). */
  podName?: string;
  /** Claim: the Sandbox it made (`status.sandbox.name`). */
  sandboxName?: string;
}

const V5 = "v5.channel.k8s.io";
const V4 = "v4.channel.k8s.io";
const SANDBOX_GROUPS = { sandboxes: "agents.x-k8s.io", sandboxclaims: "extensions.agents.x-k8s.io" } as const;

/**
 * A test-only stand-in for the parts of kube-apiserver the adapter uses, on 127.0.0.1: bearer
 * token auth (401 `Status`), pod GET and list (label selectors), agent-sandbox Sandbox and
 * SandboxClaim GET (served at `v1alpha1` only, like an older install), and pod exec over
 * websockets with the `v5.channel.k8s.io` / `v4.channel.k8s.io` subprotocols: channel 0 stdin,
 * 1 stdout, 2 stderr, 3 status (JSON `Status`), 4 resize, and on v5 255 close (`[255, 0]`
 * half-closes stdin). Each exec runs for real in its pod's Docker container; when the client
 * goes away, the process's stdin is closed and it keeps running, as with the kubelet.
 * docs/operations-kubernetes.md lists the facts this follows and their sources.
 */
export class LocalApiServer {
  readonly token = randomBytes(16).toString("hex");
  private readonly pods = new Map<string, LocalPod>();
  private readonly objects = new Map<string, LocalSandboxObject>();
  private readonly sockets = new Set<WebSocket>();
  private readonly counts = new Map<string, number>();
  private server: Server | undefined;
  private certDir: string | undefined;
  private caPem = "";
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => {
      const served = this.v5 ? [V5, V4] : [V4];
      // The server takes the first protocol of the client's list it speaks.
      for (const protocol of offered) if (served.includes(protocol)) return protocol;
      return false;
    },
  });
  /** The subprotocol of every exec connection served, in order. */
  readonly protocols: string[] = [];

  /** `v5: false`: an API server that predates v5 (before 1.30) and answers with v4. */
  constructor(
    private readonly docker: Docker,
    private readonly v5 = true,
  ) {}

  /** Starts listening on 127.0.0.1 (a free port) with TLS: a throwaway CA signs its certificate. */
  async start(): Promise<string> {
    this.certDir = await mkdtemp(join(tmpdir(), "tackle-k8s-api-"));
    const certificates = await generateEngineCertificates(this.certDir);
    this.caPem = await readFile(certificates.caPath, "utf8");
    const tls = {
      cert: await readFile(certificates.serverCertPath),
      key: await readFile(certificates.serverKeyPath),
    };
    const server = createServer(tls, (request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        sendJson(response, 500, failureStatus(500, "InternalError", String(error)));
      });
    });
    server.on("upgrade", (request, socket, head) => {
      this.upgrade(request, socket, head).catch(() => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error("the local API server is not listening");
    return `https://127.0.0.1:${address.port}`;
  }

  /** A kubeconfig for this endpoint (context `local`, namespace `ns`), with the right token unless `token` says otherwise. */
  kubeConfig(options: { namespace?: string; token?: string; context?: string } = {}): KubeConfig {
    const config = new KubeConfig();
    config.loadFromString(this.kubeconfigYaml(options));
    return config;
  }

  /** The same as a kubeconfig file's text. */
  kubeconfigYaml(options: { namespace?: string; token?: string; context?: string } = {}): string {
    const context = options.context ?? "local";
    return JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "local",
          cluster: {
            server: this.url,
            "certificate-authority-data": Buffer.from(this.caPem).toString("base64"),
          },
        },
      ],
      users: [{ name: "tester", user: { token: options.token ?? this.token } }],
      contexts: [
        {
          name: context,
          context: { cluster: "local", user: "tester", namespace: options.namespace ?? "default" },
        },
      ],
      "current-context": context,
    });
  }

  addPod(pod: LocalPod): void {
    this.pods.set(`${pod.namespace}/${pod.name}`, pod);
  }

  removePod(namespace: string, name: string): void {
    this.pods.delete(`${namespace}/${name}`);
  }

  putObject(object: LocalSandboxObject): void {
    this.objects.set(`${object.kind}/${object.namespace}/${object.name}`, object);
  }

  /** How many times a path (without query) was requested. */
  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  /** Cuts every open exec connection without a close frame, as a network failure does. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  /** Open exec connections. */
  get openConnections(): number {
    return this.sockets.size;
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
    if (this.certDir) await rm(this.certDir, { recursive: true, force: true });
  }

  private authorized(request: IncomingMessage): boolean {
    return request.headers.authorization === `Bearer ${this.token}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    this.counts.set(url.pathname, this.requests(url.pathname) + 1);
    if (!this.authorized(request)) return sendJson(response, 401, UNAUTHORIZED);
    if (request.method !== "GET")
      return sendJson(
        response,
        405,
        failureStatus(
          405,
          "MethodNotAllowed",
          "the server does not allow this method on the requested resource",
        ),
      );
    const podList = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods$/);
    if (podList) {
      const namespace = decodeURIComponent(podList[1] as string);
      const selector = url.searchParams.get("labelSelector") ?? "";
      const items = [];
      for (const pod of this.pods.values()) {
        if (pod.namespace === namespace && matchesSelector(selector, pod.labels ?? {}))
          items.push(await this.podObject(pod));
      }
      return sendJson(response, 200, {
        kind: "PodList",
        apiVersion: "v1",
        metadata: { resourceVersion: "1" },
        items,
      });
    }
    const podGet = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)$/);
    if (podGet) {
      const pod = this.pods.get(
        `${decodeURIComponent(podGet[1] as string)}/${decodeURIComponent(podGet[2] as string)}`,
      );
      if (!pod) return sendJson(response, 404, notFound("pods", "", decodeURIComponent(podGet[2] as string)));
      return sendJson(response, 200, await this.podObject(pod));
    }
    const custom = url.pathname.match(
      /^\/apis\/([^/]+)\/([^/]+)\/namespaces\/([^/]+)\/(sandboxes|sandboxclaims)\/([^/]+)$/,
    );
    if (custom) {
      const [, group, version, namespace, plural, name] = custom as unknown as [
        string,
        string,
        string,
        string,
        keyof typeof SANDBOX_GROUPS,
        string,
      ];
      if (group !== SANDBOX_GROUPS[plural] || version !== "v1alpha1") {
        // A group/version the server does not serve: the plain-text 404 of its fallback handler.
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
        response.end("404 page not found\n");
        return;
      }
      const object = this.objects.get(`${plural === "sandboxes" ? "sandbox" : "claim"}/${namespace}/${name}`);
      if (!object) return sendJson(response, 404, notFound(plural, group, name));
      return sendJson(response, 200, sandboxObject(object, group, version));
    }
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    response.end("404 page not found\n");
  }

  private async podObject(pod: LocalPod): Promise<object> {
    const statuses = [];
    for (const [name, id] of Object.entries(pod.containers)) {
      const info = await this.docker
        .getContainer(id)
        .inspect()
        .catch(() => undefined);
      const running = info?.State.Running === true;
      statuses.push({
        name,
        ready: running,
        restartCount: 0,
        image: "tackle-test",
        imageID: "",
        containerID: `docker://${id}`,
        started: running,
        state: running
          ? { running: { startedAt: info?.State.StartedAt } }
          : {
              terminated: {
                exitCode: info?.State.ExitCode ?? 0,
                reason: info ? "Completed" : "ContainerCannotRun",
              },
            },
      });
    }
    return {
      kind: "Pod",
      apiVersion: "v1",
      metadata: {
        name: pod.name,
        namespace: pod.namespace,
        uid: randomUUID(),
        labels: pod.labels ?? {},
        annotations: pod.annotations ?? {},
      },
      spec: {
        containers: Object.keys(pod.containers).map((name) => ({
          name,
          image: "tackle-test",
          ...pod.containerSpec,
        })),
      },
      status: { phase: pod.phase ?? "Running", containerStatuses: statuses },
    };
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const refuse = (code: number, status: object) => {
      const body = JSON.stringify(status);
      socket.end(
        `HTTP/1.1 ${code} ${code === 401 ? "Unauthorized" : code === 404 ? "Not Found" : "Bad Request"}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (!this.authorized(request)) return refuse(401, UNAUTHORIZED);
    const match = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/);
    if (!match)
      return refuse(404, failureStatus(404, "NotFound", "the server could not find the requested resource"));
    const name = decodeURIComponent(match[2] as string);
    const pod = this.pods.get(`${decodeURIComponent(match[1] as string)}/${name}`);
    if (!pod) return refuse(404, notFound("pods", "", name));
    const containerName = url.searchParams.get("container") ?? Object.keys(pod.containers)[0] ?? "";
    const containerId = pod.containers[containerName];
    if (!containerId) {
      return refuse(
        400,
        failureStatus(400, "BadRequest", `container ${containerName} is not valid for pod ${name}`),
      );
    }
    const command = url.searchParams.getAll("command");
    if (command.length === 0)
      return refuse(400, failureStatus(400, "BadRequest", "you must specify at least 1 command"));
    const withStdin = url.searchParams.get("stdin") === "true";
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      this.protocols.push(ws.protocol);
      this.sockets.add(ws);
      ws.on("close", () => this.sockets.delete(ws));
      void this.runExec(ws, containerId, command, withStdin);
    });
  }

  /** Runs one exec in the container and relays it over the websocket. */
  private async runExec(
    ws: WebSocket,
    containerId: string,
    command: string[],
    withStdin: boolean,
  ): Promise<void> {
    const send = (channel: number, bytes: Uint8Array) => {
      if (ws.readyState !== ws.OPEN) return;
      const frame = Buffer.allocUnsafe(bytes.length + 1);
      frame[0] = channel;
      frame.set(bytes, 1);
      ws.send(frame);
    };
    let stream: Duplex | undefined;
    let clientGone = false;
    const pending: Buffer[] = [];
    let stdinClosed = false;
    ws.on("message", (data: Buffer) => {
      const channel = data[0];
      if (channel === 0) {
        if (stream) stream.write(data.subarray(1));
        else pending.push(data.subarray(1));
      } else if (channel === 255 && ws.protocol === V5 && data[1] === 0) {
        stdinClosed = true;
        stream?.end();
      }
    });
    ws.on("close", () => {
      clientGone = true;
      // The process loses its stdin and runs on; its output goes nowhere.
      stream?.end();
    });
    const container = this.docker.getContainer(containerId);
    let exec: Docker.Exec;
    try {
      exec = await container.exec({
        Cmd: command,
        AttachStdin: withStdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      stream = (await exec.start({ hijack: true, stdin: withStdin })) as Duplex;
    } catch (error) {
      const message = (error as { json?: { message?: string } }).json?.message ?? String(error);
      send(
        3,
        Buffer.from(
          JSON.stringify(
            failureStatus(
              500,
              "InternalError",
              `Internal error occurred: error executing command in container: ${message}`,
            ),
          ),
        ),
      );
      ws.close(1000);
      return;
    }
    stream.on("error", () => {});
    for (const piece of pending) stream.write(piece);
    if (stdinClosed || clientGone || !withStdin) stream.end();
    const sink = (channel: number) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (!clientGone) send(channel, chunk);
          done();
        },
      });
    this.docker.modem.demuxStream(stream, sink(1), sink(2));
    await new Promise<void>((resolve) => {
      stream?.on("end", resolve);
      stream?.on("close", resolve);
    });
    if (clientGone) return;
    let exitCode = -1;
    for (let attempt = 0; attempt < 100; attempt++) {
      const info = await exec.inspect();
      if (!info.Running && typeof info.ExitCode === "number") {
        exitCode = info.ExitCode;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    send(
      3,
      Buffer.from(
        JSON.stringify(
          exitCode >= 0 ? execStatus(exitCode) : failureStatus(500, "InternalError", "exit code unknown"),
        ),
      ),
    );
    ws.close(1000);
  }
}

function sendJson(response: ServerResponse, code: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function sandboxObject(object: LocalSandboxObject, group: string, version: string): object {
  const conditions = [
    {
      type: "Ready",
      status: object.ready ? "True" : "False",
      reason: object.ready ? "DependenciesReady" : "DependenciesNotReady",
      message: object.ready ? "Pod is Ready" : "Pod exists with phase: Pending",
      lastTransitionTime: new Date().toISOString(),
      observedGeneration: 1,
    },
  ];
  return {
    apiVersion: `${group}/${version}`,
    kind: object.kind === "sandbox" ? "Sandbox" : "SandboxClaim",
    metadata: {
      name: object.name,
      namespace: object.namespace,
      uid: randomUUID(),
      annotations: object.podName ? { "agents.x-k8s.io/pod-name": object.podName } : {},
    },
    spec: {},
    status:
      object.kind === "sandbox"
        ? { conditions, replicas: object.ready ? 1 : 0 }
        : { conditions, ...(object.sandboxName ? { sandbox: { name: object.sandboxName } } : {}) },
  };
}
