// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * The system test: `npm start` with TOOLRUN_TOOLS pointing at examples/tools and a
 * configuration file whose `httpTools` declares the example's create-ticket against the test's
 * upstream (a real server on loopback). Each added tool is called over HTTP, over MCP with the
 * official SDK client, and in the console in Chromium, filled by its labels; the credits charged
 * are checked against /v1/me/credits and /v1/me/usage; `toolrun tools list` says where each came
 * from.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { EXAMPLE_HTTP_TOOLS } from "../../helpers/operator-tools.ts";
import { startUpstream, type TestUpstream, TICKETS_TOKEN } from "../../helpers/upstream.ts";
import { connect } from "../../mcp/helpers.ts";
import { assertCleanPage, browserMissing, browseService } from "../browser/harness.ts";
import { lines, listening, ROOT, type Started, start, toolrun } from "../run.ts";

type Json = Record<string, unknown>;

describe("npm start with an operator's tools", () => {
  let dir: string;
  let upstream: TestUpstream;
  let env: Record<string, string>;
  let server: Started;
  let url: string;
  let key: string;
  let configPath: string;
  /** Each charged call's tool and the credits its answer said it cost. */
  const charged: [tool: string, credits: number][] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-operator-"));
    upstream = await startUpstream();
    const example = JSON.parse(readFileSync(EXAMPLE_HTTP_TOOLS, "utf8")) as { httpTools: Json[] };
    configPath = join(dir, "toolrun.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        httpTools: example.httpTools.map((tool) => ({
          ...tool,
          url: String(tool.url).replace("http://127.0.0.1:8787", upstream.origin),
        })),
        tools: { "unit-converter": { weight: 2 } },
      }),
    );
    env = {
      TOOLRUN_DATABASE: join(dir, "toolrun.db"),
      TOOLRUN_CONFIG: configPath,
      TOOLRUN_TOOLS: "examples/tools",
      TICKETS_TOKEN,
      PORT: "0",
    };
    server = start("npm", ["start"], env);
    url = await listening(server);
    const printed = /\n\s+(\S+_\S{32})\n/.exec(server.stderr());
    assert.ok(printed?.[1], server.stderr());
    key = printed[1];
  });

  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it("lists where each tool came from: built in, the example's module, the configuration's httpTools", async () => {
    const listed = await toolrun(["tools", "list", "--json"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const from = Object.fromEntries(
      (JSON.parse(listed.stdout) as { slug: string; from: string }[]).map((row) => [row.slug, row.from]),
    );
    assert.equal(from["retaining-wall-pressure-calculator"], "built-in");
    assert.equal(from["unit-converter"], join(ROOT, "examples/tools/unit-converter.ts"));
    assert.equal(from["create-ticket"], `httpTools[0] in ${configPath}`);
  });

  it("calls each added tool over HTTP", async () => {
    const converted = await api("POST", "/v1/tool/unit-converter", { value: 42.195, from: "km", to: "mi" });
    assert.equal(converted.status, 200, JSON.stringify(converted.body));
    assert.equal((converted.body.outputs as Json).text, "42.195 km = 26.2188 mi");
    charged.push(["unit-converter", converted.body.credits_used as number]);
    const ticket = await api("POST", "/v1/tool/create-ticket", {
      title: "Printer on fire",
      priority: "high",
    });
    assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
    assert.equal((ticket.body.outputs as Json).title, "Printer on fire");
    assert.equal(upstream.requests.at(-1)?.headers.authorization, `Bearer ${TICKETS_TOKEN}`);
    charged.push(["create-ticket", ticket.body.credits_used as number]);
    assert.deepEqual(
      charged.map(([, credits]) => credits),
      [2, 5],
    );
    const refused = await api("POST", "/v1/tool/unit-converter", { value: 1, from: "km", to: "kg" });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.credits_used, 0);
  });

  it("calls each added tool over MCP with the SDK client", async () => {
    const client = await connect(`${url}/mcp`, key, "2025-11-25");
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ["unit-converter", "create-ticket"]) assert.ok(names.includes(name), name);
      const converted = await client.callTool({
        name: "unit-converter",
        arguments: { value: 37, from: "C", to: "F" },
      });
      const envelope = converted.structuredContent as Json;
      assert.equal((envelope.outputs as Json).text, "37 C = 98.6 F");
      charged.push(["unit-converter", envelope.credits_used as number]);
      const ticket = await client.callTool({
        name: "create-ticket",
        arguments: { title: "From an agent" },
        _meta: { "toolrun/idempotency-key": "agent-ticket-1" },
      });
      const made = ticket.structuredContent as Json;
      assert.equal((made.outputs as Json).priority, "normal");
      charged.push(["create-ticket", made.credits_used as number]);
      // The retry is the stored answer: the help desk made the ticket once, nothing more is charged.
      const retried = await client.callTool({
        name: "create-ticket",
        arguments: { title: "From an agent" },
        _meta: { "toolrun/idempotency-key": "agent-ticket-1" },
      });
      assert.deepEqual(retried.structuredContent, made);
    } finally {
      await client.close();
    }
  });

  it("runs each added tool in the console, its form filled by its labels", {
    skip: browserMissing() ?? false,
  }, async () => {
    const site = await browseService(new URL(url).origin, key);
    try {
      const forms: [slug: string, fill: [label: string, value: string, choice: boolean][], shows: RegExp][] =
        [
          [
            "unit-converter",
            [
              ["Value", "100", false],
              ["From", "cm", true],
              ["To", "in", true],
            ],
            /100 cm = 39\.3701 in/,
          ],
          [
            "create-ticket",
            [
              ["Title", "Filled in the console", false],
              ["Priority", "low", true],
            ],
            /Filled in the console/,
          ],
        ];
      for (const [slug, fill, shows] of forms) {
        const w = await site.open(`/tools/${slug}`, { key });
        for (const [label, value, choice] of fill) {
          const control = w.page.getByLabel(label, { exact: true });
          if (choice) await control.selectOption(value);
          else await control.fill(value);
        }
        await w.page.getByRole("button", { name: "Run", exact: true }).click();
        await w.page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
        assert.equal(await w.page.locator("#problem").isHidden(), true, `${slug} ran`);
        assert.match((await w.page.locator("#results").textContent()) ?? "", shows);
        await assertCleanPage(w);
        await w.page.close();
      }
      charged.push(["unit-converter", 2], ["create-ticket", 5]);
    } finally {
      await site.close();
    }
  });

  it("charged exactly the credits of the 200 answers, as /v1/me/credits and /v1/me/usage say", async () => {
    const credits = await api("GET", "/v1/me/credits");
    const spent = charged.reduce((sum, [, n]) => sum + n, 0);
    assert.equal(credits.body.credits_used, spent);
    const usage = await api("GET", "/v1/me/usage?limit=100");
    assert.equal(usage.body.credits_used, spent);
    const byTool = Object.fromEntries(
      (usage.body.by_tool as { tool: string; credits: number }[]).map((row) => [row.tool, row.credits]),
    );
    const expected: Record<string, number> = {};
    for (const [tool, n] of charged) expected[tool] = (expected[tool] ?? 0) + n;
    assert.deepEqual(byTool, expected);
    assert.deepEqual(
      lines(server.stdout()).filter((line) => /"level":(50|60)/.test(line)),
      [],
    );
  });

  it("never writes the HTTP tool's secret to its output", () => {
    assert.ok(!server.stdout().includes(TICKETS_TOKEN), "the secret is in the log");
    assert.ok(!server.stderr().includes(TICKETS_TOKEN), "the secret is on stderr");
  });
});
