/**
 * `toolrun tools import` as an operator runs it: the declarations alone on stdout (ready to paste
 * into `httpTools`), what was left out on stderr, and one line with the right exit code when the
 * document or the call is wrong. It needs no database or configuration.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli } from "../../helpers/process.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/openapi/${name}`, import.meta.url));
const toolsImport = (...args: string[]) => runCli(["tools", "import", ...args], {});

describe("toolrun tools import", () => {
  it("prints the declarations of the operations asked for, and warnings on stderr", async () => {
    const result = await toolsImport(
      fixture("help-desk-3.0.yaml"),
      "--operation",
      "getTicket",
      "--operation",
      "createTicket",
    );
    assert.equal(result.code, 0, result.stderr);
    const declarations = JSON.parse(result.stdout) as { slug: string; url: string }[];
    assert.deepEqual(
      declarations.map((d) => [d.slug, d.url]),
      [
        ["create-ticket", "https://eu.helpdesk.example/api/v2/tickets"],
        ["get-ticket", "https://eu.helpdesk.example/api/v2/tickets/{ticketId}"],
      ],
    );
    assert.match(result.stderr, /^toolrun: warning: set the environment variable BEARER_AUTH /m);
  });

  it("takes --base-url, and names it when the document has no server", async () => {
    const missing = await toolsImport(fixture("weather-3.1.json"));
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, "");
    assert.equal(
      missing.stderr,
      `toolrun: ${fixture("weather-3.1.json")}: the document names no server; pass --base-url URL\n`,
    );
    const given = await toolsImport(fixture("weather-3.1.json"), "--base-url", "https://weather.example/v1");
    assert.equal(given.code, 0, given.stderr);
    assert.deepEqual(
      (JSON.parse(given.stdout) as { url: string }[]).map((d) => d.url),
      ["https://weather.example/v1/forecast/{city}", "https://weather.example/v1/alerts"],
    );
  });

  it("fails with one line for an unknown operation, a missing file and a document that is not OpenAPI 3", async () => {
    const unknown = await toolsImport(fixture("help-desk-3.0.yaml"), "--operation", "nope");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^toolrun: .*--operation nope: no operation has this id/);
    const absent = await toolsImport("/no/such/openapi.yaml");
    assert.equal(absent.code, 1);
    assert.match(
      absent.stderr,
      /^toolrun: \/no\/such\/openapi\.yaml: cannot read it as an OpenAPI document: /,
    );
    assert.equal(absent.stderr.trim().split("\n").length, 1);
    const swagger = await toolsImport(fixture("swagger-2.0.json"));
    assert.equal(swagger.code, 1);
    assert.match(swagger.stderr, /only OpenAPI 3\.0 and 3\.1 documents can be imported; this one is 2\.0/);
  });

  it("exits 1 when an operation asked for cannot be imported, printing the others", async () => {
    const result = await toolsImport(
      fixture("help-desk-3.0.yaml"),
      "--operation",
      "getTicket",
      "--operation",
      "uploadAttachment",
    );
    assert.equal(result.code, 1);
    assert.deepEqual(
      (JSON.parse(result.stdout) as { slug: string }[]).map((d) => d.slug),
      ["get-ticket"],
    );
    assert.match(result.stderr, /operation uploadAttachment is left out: /);
    assert.match(result.stderr, /could not import uploadAttachment/);
  });

  it("writes the entries into a configuration file, merging by slug and refusing a clash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-import-"));
    try {
      const config = join(dir, "toolrun.json");
      const plans = { plans: { free: { monthlyCredits: 10 } } };
      writeFileSync(config, JSON.stringify({ ...plans, httpTools: [{ slug: "mine", note: "kept" }] }));
      const billing = fixture("billing-3.0.yaml");
      const first = await toolsImport(billing, "--operation", "GetCustomer", "--write", config);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, `Added 1 httpTools entry to ${config}: get-customer.\n`);
      const written = JSON.parse(readFileSync(config, "utf8"));
      assert.deepEqual(written.plans, plans.plans, "the rest of the file is kept");
      assert.deepEqual(
        written.httpTools.map((t: { slug: string }) => t.slug),
        ["mine", "get-customer"],
      );
      // The same entries again change nothing; more are added after them.
      const again = await toolsImport(
        billing,
        "--operation",
        "GetCustomer",
        "--operation",
        "PutPlan",
        "--write",
        config,
      );
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(
        JSON.parse(readFileSync(config, "utf8")).httpTools.map((t: { slug: string }) => t.slug),
        ["mine", "get-customer", "put-plan"],
      );
      // Another entry under an imported slug is a clash: nothing is written.
      const before = readFileSync(config, "utf8");
      const clash = await toolsImport(billing, "--base-url", "https://other.example", "--write", config);
      assert.equal(clash.code, 1);
      assert.match(
        clash.stderr,
        /its httpTools already has another entry for get-customer, put-plan; nothing was written/,
      );
      assert.equal(readFileSync(config, "utf8"), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
