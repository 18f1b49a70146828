/**
 * Captures against the real server: a delivery signed by the `standardwebhooks` library and one
 * signed by the `svix` library reach a capture's address over real HTTP, both are listed, and the
 * inspector, given each one's `raw` and the secret, says the signature is valid. The svix delivery
 * is sent with node:http so its header names keep their case and order on the wire, as kept.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { freePort } from "../../oauth/helpers.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

interface Received {
  id: string;
  method: string;
  size: number;
  raw: string;
}

/** Sends a request with node:http, header names and their order exactly as given. */
function send(url: string, method: string, headers: [string, string][], body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // Given as an array, the headers are sent as they are: Node adds no Host nor framing of its own.
    const framing: [string, string][] = [
      ["Host", new URL(url).host],
      ["Content-Length", String(Buffer.byteLength(body))],
    ];
    const req = request(url, { method, headers: [...framing, ...headers].flat() }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("captures on a running server", () => {
  let server: ServerProcess;
  let dir: string;
  let key: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-captures-"));
    const port = String(await freePort());
    server = await startServerProcess({
      TOOLRUN_DATABASE: join(dir, "toolrun.db"),
      PORT: port,
      TOOLRUN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    const found = /\n\s+(\S+_\S{32})\n/.exec(server.output())?.[1];
    if (!found) throw new Error(`no bootstrap key in:\n${server.output()}`);
    key = found;
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("catches deliveries signed by standardwebhooks and svix, and the inspector verifies each", async () => {
    const created = await api("POST", "/v1/captures");
    assert.equal(created.status, 201);
    const url = created.body.url as string;
    assert.match(url, new RegExp(`^${server.url}/hooks/[0-9A-Za-z]{32}$`));

    const standardBody = '{"type":"invoice.paid","data":{"id":"in_1","amount":2000}}';
    const standardAt = new Date();
    const standard = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "msg_standard",
        "webhook-timestamp": String(Math.floor(standardAt.getTime() / 1000)),
        "webhook-signature": new StandardWebhook(SECRET).sign("msg_standard", standardAt, standardBody),
      },
      body: standardBody,
    });
    assert.equal(standard.status, 200);
    assert.deepEqual(await standard.json(), { received: true });

    const svixBody = JSON.stringify(
      { type: "user.created", data: { id: "user_1", email: "a@example.com" } },
      null,
      2,
    );
    const svixAt = new Date();
    const svixHeaders: [string, string][] = [
      ["Svix-Id", "msg_svix"],
      ["Svix-Timestamp", String(Math.floor(svixAt.getTime() / 1000))],
      ["Svix-Signature", new SvixWebhook(SECRET).sign("msg_svix", svixAt, svixBody)],
      ["Content-Type", "application/json"],
    ];
    assert.equal(await send(`${url}?attempt=1`, "POST", svixHeaders, svixBody), 200);

    const listed = await api("GET", `/v1/captures/${created.body.id}/requests`);
    assert.equal(listed.status, 200);
    const requests = listed.body.requests as Received[];
    assert.equal(requests.length, 2);
    const [svixCaught, standardCaught] = requests as [Received, Received];
    assert.equal(svixCaught.size, Buffer.byteLength(svixBody));
    assert.equal(standardCaught.size, Buffer.byteLength(standardBody));
    // The head as it came over the wire: names as sent, in order, then the body untouched.
    const head = svixCaught.raw.split("\r\n\r\n")[0]?.split("\r\n") ?? [];
    assert.equal(head[0], `POST ${new URL(url).pathname}?attempt=1 HTTP/1.1`);
    assert.deepEqual(
      // (Node's client adds its Connection header after them.)
      head.slice(1, 7).map((line) => line.slice(0, line.indexOf(":"))),
      ["Host", "Content-Length", "Svix-Id", "Svix-Timestamp", "Svix-Signature", "Content-Type"],
    );
    assert.ok(svixCaught.raw.endsWith(`\r\n\r\n${svixBody}`));

    for (const [caught, provider] of [
      [standardCaught, "Standard Webhooks"],
      [svixCaught, "Svix"],
    ] as const) {
      const inspected = await api("POST", "/v1/tool/webhook-payload-inspector", {
        payload: caught.raw,
        secret: SECRET,
      });
      assert.equal(inspected.status, 200, JSON.stringify(inspected.body));
      const outputs = inspected.body.outputs as {
        verification: { status: string };
        overview: { property: string; value: string }[];
      };
      assert.equal(outputs.verification.status, "valid", provider);
      assert.equal(outputs.overview.find((row) => row.property === "Provider")?.value, provider);
    }

    const wrong = await api("POST", "/v1/tool/webhook-payload-inspector", {
      payload: svixCaught.raw,
      secret: "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    assert.equal((wrong.body.outputs as { verification: { status: string } }).verification.status, "invalid");
  });
});
