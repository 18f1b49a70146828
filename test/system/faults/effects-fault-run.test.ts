/**
 * The fault run of a tool with effects outside: an HTTP tool that POSTs to an upstream which counts
 * what it received, called by several clients at once for some seconds, a third of them hanging up
 * mid-call, while the instance's PostgreSQL connection stalls (a TCP proxy frozen for 3 s, past
 * TOOLRUN_DB_TIMEOUT_MS) and later its event loop is blocked for 3 s (an operator's module tool
 * that computes that long, test/fixtures/fault-tools). Whatever happened to each call, the
 * upstream's count of the requests it received (each acted) equals the calls the ledger charged,
 * exactly, and every call the client saw answered 200 is among them (docs/errors.md, "When a
 * backend stalls").
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { ServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl, uniqueName } from "../../helpers/services.ts";
import { proxyUrl, type TcpProxy } from "../../helpers/tcp-proxy.ts";
import { startUpstream, type TestUpstream } from "../../helpers/upstream.ts";
import { callTool, getJson } from "../scale-out/calls.ts";
import { type Cluster, createCluster, type TestKey } from "../scale-out/cluster.ts";

const database = testDatabaseUrl();
const FAULT_TOOLS = fileURLToPath(new URL("../../fixtures/fault-tools/", import.meta.url));
/** The upstream's path the tool POSTs to: it answers after 50 ms, so hang-ups land mid-call. */
const ACT_PATH = "/slow/50";
const CLIENTS = 8;

interface Sent {
  readonly id: string;
  readonly hungUp: boolean;
  /** The status the client saw; null when it hung up first or the connection failed. */
  readonly status: number | null;
}

/** One call of the tool; every third hangs up after up to 80 ms. Never throws. */
async function act(base: string, key: string, id: string, hangUp: boolean): Promise<Sent> {
  const controller = new AbortController();
  const timer = hangUp ? setTimeout(() => controller.abort(), Math.floor(Math.random() * 80)) : undefined;
  try {
    const res = await fetch(`${base}/v1/tool/act`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": id },
      body: JSON.stringify({ note: id }),
      signal: hangUp ? controller.signal : AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return { id, hungUp: hangUp, status: res.status };
  } catch {
    return { id, hungUp: hangUp, status: null };
  } finally {
    clearTimeout(timer);
  }
}

if (database.url === undefined) {
  it("the fault run of a tool with effects outside", { skip: database.skip }, () => {});
} else {
  const databaseUrl = database.url;

  describe("the fault run of a tool with effects outside: hang-ups, a PostgreSQL stall, a blocked loop", () => {
    let upstream: TestUpstream;
    let cluster: Cluster | undefined;
    let proxy: TcpProxy | undefined;
    let server: ServerProcess;
    let key: TestKey;

    before(async () => {
      upstream = await startUpstream();
      cluster = await createCluster({
        databaseUrl,
        redisUrl: null,
        config: {
          plans: { builder: { rpm: 100_000 } },
          httpTools: [
            {
              slug: "act",
              name: "Act",
              description: "Acts on the test upstream, which counts every request it receives.",
              version: "1.0.0",
              weight: 1,
              inputSchema: { type: "object", properties: { note: { type: "string" } } },
              url: `${upstream.origin}${ACT_PATH}`,
              method: "POST",
              timeoutMs: 20_000,
            },
          ],
        },
      });
      const proxied = await proxyUrl(databaseUrl);
      proxy = proxied.proxy;
      [server] = (await cluster.start(1, {
        TOOLRUN_DATABASE: proxied.url,
        TOOLRUN_DB_TIMEOUT_MS: "1000",
        TOOLRUN_TOOLS: FAULT_TOOLS,
      })) as [ServerProcess];
      key = await cluster.createKey("builder", 1_000_000);
    });
    after(async () => {
      proxy?.release();
      await cluster?.cleanup();
      await proxy?.close();
      await upstream?.close();
    });

    it("charges exactly the requests the upstream received, and every 200 among them", async (t) => {
      assert.ok(cluster && proxy);
      const tag = uniqueName("f");
      const sent: Sent[] = [];
      let running = true;
      const clients = Array.from({ length: CLIENTS }, async (_, c) => {
        for (let n = 0; running; n++) {
          sent.push(await act(server.url, key.key, `${tag}-${c}-${n}`, n % 3 === 2));
        }
      });

      await sleep(1_500);
      // PostgreSQL stalls for every connection of the instance, new ones included.
      proxy.freeze();
      await sleep(3_000);
      proxy.release();
      await sleep(1_500);
      // The instance's event loop is held for 3 s: its timers (statement timeouts) fire late, before
      // the sockets whose answers came meanwhile are read.
      const blocked = await callTool(server.url, 0, key.key, `${tag}-block`, { ms: 3_000 }, "block-loop");
      assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
      await sleep(1_500);
      running = false;
      await Promise.all(clients);

      // Every call ends settled: captures still being retried commit, unconfirmed reservations go back.
      const pending = async () =>
        (
          await cluster?.query<{ n: number }>(
            "SELECT count(*)::integer AS n FROM usage_calls WHERE tool = 'act' AND status = 'pending'",
          )
        )?.[0]?.n;
      for (let n = 0; (await pending()) !== 0; n++) {
        assert.ok(n < 100, "calls still pending 20 s after the run");
        await sleep(200);
      }
      // Compensations of unconfirmed reservations may still be on their way: let the books settle.
      await sleep(2_000);

      const acted = upstream.requests.filter((r) => r.url === ACT_PATH).length;
      const rows = await cluster.query<{ request_id: string; status: string; credits: number }>(
        "SELECT request_id, status, credits FROM usage_calls WHERE tool = 'act'",
      );
      const charged = rows.filter((r) => r.status === "charged");
      const seen200 = sent.filter((s) => s.status === 200);
      const statuses = new Map<string, number>();
      for (const s of sent) statuses.set(String(s.status), (statuses.get(String(s.status)) ?? 0) + 1);
      t.diagnostic(
        `calls ${sent.length} (hung up ${sent.filter((s) => s.hungUp).length}), statuses ${JSON.stringify(Object.fromEntries(statuses))}, upstream received ${acted}, charged ${charged.length}`,
      );
      assert.ok(seen200.length > 0 && sent.some((s) => s.hungUp), "the run made calls and hung up some");
      assert.equal(charged.length, acted, "the upstream's requests and the charged calls differ");
      const chargedIds = new Set(charged.map((r) => r.request_id));
      assert.deepEqual(
        seen200.filter((s) => !chargedIds.has(s.id)).map((s) => s.id),
        [],
        "200s the ledger did not charge",
      );
      // A 503 comes only before the request left: nothing acted, nothing charged.
      assert.deepEqual(
        sent.filter((s) => s.status === 503 && chargedIds.has(s.id)).map((s) => s.id),
        [],
        "503s the ledger charged",
      );
      const credits = await getJson(server.url, "/v1/me/credits", key.key);
      // The block-loop call is charged too, as any call.
      const blockCredits = Number(blocked.body?.credits_used);
      const chargedCredits = charged.reduce((sum, r) => sum + r.credits, 0);
      assert.equal(credits.body.credits_used, chargedCredits + blockCredits);
    });
  });
}
