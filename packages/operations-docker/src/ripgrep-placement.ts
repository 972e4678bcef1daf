import { readFile } from "node:fs/promises";
import { pack } from "tar-stream";
import type { ContainerClient } from "./container-client.js";

/** Directory (below the adapter's temp dir) that holds a ripgrep placed by the adapter. */
const PLACED_RG_DIR = ".tackle-rg";

/** Where {@link placeRipgrep} puts rg inside the container. */
export function placedRipgrepPath(tempDir: string): string {
  return `${tempDir}/${PLACED_RG_DIR}/rg`;
}

const ARCH_OF_MACHINE: Record<string, string> = { x86_64: "x64", aarch64: "arm64", armv7l: "arm" };

/**
 * The ripgrep that `@vscode/ripgrep` ships for this host, when it can run in the container: the
 * host is Linux (the binary is a static Linux build) with the container's CPU architecture.
 */
export async function bundledRipgrepFor(containerMachine: string): Promise<string | undefined> {
  if (process.platform !== "linux" || ARCH_OF_MACHINE[containerMachine] !== process.arch) return undefined;
  try {
    return (await import("@vscode/ripgrep")).rgPath;
  } catch {
    return undefined;
  }
}

/**
 * Copies the host file `hostPath` (a static Linux rg) into the container at
 * `<tempDir>/.tackle-rg/rg` through the archive endpoint (`PUT /containers/{id}/archive`), mode
 * 0755, and returns its path there.
 */
export async function placeRipgrep(
  client: ContainerClient,
  tempDir: string,
  hostPath: string,
): Promise<string> {
  const binary = await readFile(hostPath);
  const archive = pack();
  archive.entry({ name: `${PLACED_RG_DIR}/`, type: "directory", mode: 0o755 });
  archive.entry({ name: `${PLACED_RG_DIR}/rg`, mode: 0o755, size: binary.length }, binary);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(Buffer.from(chunk as Uint8Array));
  try {
    await client.container.putArchive(Buffer.concat(chunks), { path: tempDir });
  } catch (error) {
    throw client.fail(error, "search", tempDir);
  }
  return placedRipgrepPath(tempDir);
}
