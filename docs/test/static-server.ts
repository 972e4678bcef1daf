// Serves the built site the way a static host does (GitHub Pages): under the site's base path,
// `.html` optional, `404.html` for what does not exist. 127.0.0.1 only, on a free port.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

export interface StaticSite {
  /** The site's address, ending in its base path (`http://127.0.0.1:PORT/tackle/`). */
  url: string;
  close(): Promise<void>;
}

/** The file a request path names in `dir`, or undefined (also for paths escaping `dir`). */
export function fileFor(dir: string, base: string, pathname: string): string | undefined {
  if (!pathname.startsWith(base)) return undefined;
  const relative = normalize(decodeURIComponent(pathname.slice(base.length)));
  if (relative.startsWith("..")) return undefined;
  const candidates =
    relative === "." || relative.endsWith("/")
      ? [join(relative, "index.html")]
      : [relative, `${relative}.html`, join(relative, "index.html")];
  for (const candidate of candidates) {
    const file = join(dir, candidate);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

export async function serveSite(dir: string, base: string): Promise<StaticSite> {
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    const file = fileFor(dir, base, pathname);
    const status = file ? 200 : 404;
    const body = file ?? join(dir, "404.html");
    response.writeHead(status, { "content-type": TYPES[extname(body)] ?? "application/octet-stream" });
    createReadStream(body).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}${base}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
