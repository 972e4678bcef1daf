import { execFile } from "node:child_process";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Files of a test TLS setup for an engine on 127.0.0.1 (see {@link generateEngineCertificates}). */
export interface EngineCertificates {
  /** CA certificate (PEM) that signed both certificates. */
  caPath: string;
  /** Server certificate and key for 127.0.0.1 (dockerd's --tlscert / --tlskey). */
  serverCertPath: string;
  serverKeyPath: string;
  /** A directory in the docker CLI's layout (ca.pem, cert.pem, key.pem): a client's DOCKER_CERT_PATH. */
  clientCertDir: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  await run("openssl", args, { cwd });
}

/**
 * Generates a throwaway CA, a server certificate for 127.0.0.1 and a client certificate with
 * openssl (P-256 keys, valid two days) into `dir`, for an engine started with `--tlsverify`.
 */
export async function generateEngineCertificates(dir: string): Promise<EngineCertificates> {
  await mkdir(join(dir, "client"), { recursive: true });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await openssl(
    [
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "ca-key.pem",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=tackle test CA",
    ],
    dir,
  );
  await writeFile(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  await writeFile(join(dir, "client.ext"), "extendedKeyUsage=clientAuth\n");
  for (const [name, subject, ext, out, key] of [
    ["server", "/CN=127.0.0.1", "server.ext", "server-cert.pem", "server-key.pem"],
    ["client", "/CN=tackle test client", "client.ext", "client/cert.pem", "client/key.pem"],
  ] as const) {
    await openssl(["req", ...ec, "-keyout", key, "-out", `${name}.csr`, "-subj", subject], dir);
    await openssl(
      [
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca-key.pem",
        "-CAcreateserial",
        "-out",
        out,
        "-days",
        "2",
        "-extfile",
        ext,
      ],
      dir,
    );
  }
  await copyFile(join(dir, "ca.pem"), join(dir, "client", "ca.pem"));
  return {
    caPath: join(dir, "ca.pem"),
    serverCertPath: join(dir, "server-cert.pem"),
    serverKeyPath: join(dir, "server-key.pem"),
    clientCertDir: join(dir, "client"),
  };
}
