/**
 * A client's own https host on loopback, serving its client ID metadata document: a throwaway
 * certificate made by openssl for 127.0.0.1 (which the server under test is told to trust through
 * NODE_EXTRA_CA_CERTS), and a count of the fetches, so a test can tell "refused without asking"
 * from "asked, then refused".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface MetadataHost {
  /** The document's URL: the client's id. */
  readonly clientId: string;
  /** The PEM file of the certificate, for NODE_EXTRA_CA_CERTS. */
  readonly certificate: string;
  fetches(): number;
  close(): Promise<void>;
}

export async function startMetadataHost(
  metadata: (clientId: string) => Record<string, unknown>,
): Promise<MetadataHost> {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-cimd-"));
  const certificate = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      certificate,
    ],
    { stdio: "ignore" },
  );
  let fetches = 0;
  let clientId = "";
  const server = createServer(
    { cert: readFileSync(certificate), key: readFileSync(key) },
    (request, response) => {
      fetches++;
      if (request.url !== "/oauth/client.json") {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata(clientId)));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  clientId = `https://127.0.0.1:${address.port}/oauth/client.json`;
  return {
    clientId,
    certificate,
    fetches: () => fetches,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
