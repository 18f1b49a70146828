/**
 * The paced generator's latency accounting: waiting for a busy server counts against the server
 * (no coordinated omission), in both figures.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { runPaced } from "../../bench/lib/paced.ts";

describe("bench: paced generator", () => {
  it("counts the wait for a busy server from when each request was due", async () => {
    // One connection and a server that takes 40 ms per answer, asked 50 times a second: each
    // request waits behind the previous ones, so latencies grow far beyond the 40 ms service time.
    const server = createServer((_request, response) => {
      setTimeout(() => response.end("ok"), 40);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await runPaced({
        url: `http://127.0.0.1:${port}/`,
        method: "GET",
        headers: {},
        rate: 50,
        durationS: 1,
        maxConnections: 1,
      });
      assert.equal(result.ok, 50);
      assert.equal(result.connections, 1);
      // The last request fell due at ~980 ms and was answered after 50 x 40 ms = ~2,000 ms.
      assert.ok(result.latencyMs.max > 800, `max latency ${result.latencyMs.max} ms`);
      assert.ok(result.latencyFromDueMs.max >= result.latencyMs.max);
      assert.ok(result.latencyMs.p50 > 300, `p50 ${result.latencyMs.p50} ms`);
    } finally {
      server.close();
    }
  });
});
