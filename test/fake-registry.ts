import http from "node:http";
import type { AddressInfo } from "node:net";

/** A package version the fake registry holds, and what a publish uploaded. */
export interface RegistryVersion {
  name: string;
  version: string;
}

/**
 * The few npm registry routes a release touches, on 127.0.0.1: `/-/ping`, a package document
 * (404 for an unknown package) and the publish `PUT`. It answers with the versions it was given
 * plus every version uploaded to it.
 */
export async function startFakeRegistry(existing: RegistryVersion[]) {
  const versions = [...existing];
  const uploads: RegistryVersion[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://registry");
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (url.pathname.startsWith("/-/ping")) return send(200, {});
      const name = decodeURIComponent(url.pathname.slice(1));
      if (request.method === "PUT") {
        const document = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { versions: object };
        for (const version of Object.keys(document.versions)) {
          uploads.push({ name, version });
          versions.push({ name, version });
        }
        return send(201, { ok: true });
      }
      const known = versions.filter((v) => v.name === name);
      if (known.length === 0) return send(404, { error: "not_found" });
      const latest = known.at(-1)?.version;
      return send(200, {
        name,
        "dist-tags": { latest },
        versions: Object.fromEntries(known.map((v) => [v.version, { name, version: v.version }])),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    uploads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 where nothing listens (connections are refused at once). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
