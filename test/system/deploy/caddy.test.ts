/**
 * toolrun behind Caddy (Debian's package) terminating TLS with its internal CA on a loopback
 * port, as docs/deploy.md sets it up: `TOOLRUN_PUBLIC_URL` is the https URL, `TOOLRUN_TRUST_PROXY`
 * trusts the one proxy. A client process that trusts Caddy's root CA (and it alone: this test's
 * own process does not) completes OAuth discovery from the 401, signs in with the MCP SDK and
 * makes a priced MCP call, all over https through the proxy.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { BIN, listening, PINNED_NODE, run, type Started, sleep, start } from "../run.ts";

const CADDY = "/usr/bin/caddy";
const CLIENT = fileURLToPath(new URL("./https-client.ts", import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

describe("toolrun behind Caddy with automatic TLS", {
  skip: !existsSync(CADDY) && `${CADDY} is missing: apt-get install -y caddy`,
}, () => {
  let dir: string;
  let toolrun: Started;
  let caddy: Started;
  let base: string;
  let key: string;
  let rootCa: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-caddy-"));
    const httpsPort = await freePort();
    base = `https://localhost:${httpsPort}`;
    toolrun = start(PINNED_NODE, [BIN, "serve"], {
      TOOLRUN_DATABASE: join(dir, "toolrun.db"),
      PORT: "0",
      TOOLRUN_PUBLIC_URL: base,
      TOOLRUN_TRUST_PROXY: "1",
    });
    const upstream = new URL(await listening(toolrun));
    const printed = /\n\s+(\S+_\S{32})\n/.exec(toolrun.stderr())?.[1];
    assert.ok(printed, toolrun.stderr());
    key = printed;

    const caddyfile = join(dir, "Caddyfile");
    writeFileSync(
      caddyfile,
      `{
\tadmin off
\tskip_install_trust
\thttp_port ${await freePort()}
\thttps_port ${httpsPort}
\tstorage file_system ${join(dir, "caddy")}
}

localhost:${httpsPort} {
\ttls internal
\treverse_proxy ${upstream.host}
}
`,
    );
    caddy = start(CADDY, ["run", "--config", caddyfile, "--adapter", "caddyfile"], {
      HOME: dir,
      XDG_DATA_HOME: join(dir, "data"),
      XDG_CONFIG_HOME: join(dir, "config"),
    });
    rootCa = join(dir, "caddy", "pki", "authorities", "local", "root.crt");
    const deadline = Date.now() + 30_000;
    while (!(existsSync(rootCa) && /serving initial configuration/.test(caddy.stderr()))) {
      if (caddy.child.exitCode !== null || Date.now() > deadline)
        assert.fail(`caddy did not start:\n${caddy.stderr()}`);
      await sleep(100);
    }
  });

  after(async () => {
    for (const started of [caddy, toolrun]) {
      if (started && started.child.exitCode === null) {
        started.child.kill("SIGTERM");
        await started.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("is not trusted by a client without Caddy's root CA", async () => {
    await assert.rejects(fetch(`${base}/healthz`), TypeError);
  });

  it("completes OAuth discovery and a priced MCP call over https, for a client trusting its CA", async () => {
    const client = await run(PINNED_NODE, [CLIENT, base, key], { NODE_EXTRA_CA_CERTS: rootCa });
    assert.equal(client.code, 0, `${client.stdout}\n${client.stderr}`);
    const seen = JSON.parse(client.stdout.trim().split("\n").at(-1) ?? "{}");
    assert.match(
      seen.challenge,
      new RegExp(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`),
    );
    assert.equal(seen.resource, `${base}/mcp`);
    assert.equal(seen.issuer, base);
    assert.equal(seen.authorizationEndpoint, `${base}/oauth/authorize`);
    assert.equal(seen.tokenEndpoint, `${base}/oauth/token`);
    assert.equal(seen.signInStarted, true, "the SDK met the 401 and started the sign-in");
    assert.equal(seen.redirectOrigin, "http://127.0.0.1:9", "back to the client's loopback redirect");
    assert.equal(String(seen.tokenType).toLowerCase(), "bearer");
    assert.equal(seen.isError, false);
    assert.ok(seen.creditsUsed > 0, "the call was priced, on the consenting key's account");
  });
});
