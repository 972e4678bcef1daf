// One agent session per pod: the same tools in every pod, each session in its own workspace.
// Run it with `NAMESPACE=agents SELECTOR=app=agent-box npx tsx sessions-on-pods.ts` (Node 22.19 or
// newer; credentials as kubectl finds them). Every running pod the selector matches gets a session.
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createKubernetesOperations } from "@tackle/operations-kubernetes";
import { createToolContext, createTools } from "@tackle/tools";

const namespace = process.env.NAMESPACE ?? "default";
const selector = process.env.SELECTOR ?? "app=agent-box";

// #region sessions
const config = new KubeConfig();
config.loadFromDefault(); // KUBECONFIG, ~/.kube/config or the in-cluster service account
const { items } = await config
  .makeApiClient(CoreV1Api)
  .listNamespacedPod({ namespace, labelSelector: selector });
const pods = items.filter((pod) => pod.status?.phase === "Running").map((pod) => pod.metadata?.name ?? "");

async function session(pod: string): Promise<string> {
  const operations = createKubernetesOperations({ pod, namespace, kubeconfig: config });
  await operations.connect(); // a pod that is gone or not running fails here, naming the kubectl step
  await operations.mkdir("/tmp/session", { recursive: true });
  const context = createToolContext({ cwd: "/tmp/session", operations, disposeOperations: true });
  try {
    const { write, bash } = createTools({ context, names: ["write", "bash"] });
    await invokeTool(write, { path: "notes.md", content: `# session on ${pod}\n` });
    return `--- ${pod}\n${text(await invokeTool(bash, { command: "wc -c < notes.md" }))}`;
  } finally {
    await context.dispose(); // closes the adapter's resident shells (disposeOperations)
  }
}

for (const line of await Promise.all(pods.map(session))) console.log(line);
// #endregion sessions

function text(outcome: ToolOutcome): string {
  return outcome.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("")
    .trim();
}
