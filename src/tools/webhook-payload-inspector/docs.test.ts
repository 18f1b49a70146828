/**
 * The document must not drift from the code: its generated tables equal what gen-docs.ts renders
 * from the provider table now, and its curl example and abridged response are what the tool does.
 * On a table failure run `npm run docs:inspector` and commit.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";
import { providerTable, regenerate, UNVERIFIED } from "./gen-docs.ts";
import { webhookPayloadInspector } from "./index.ts";
import { PROVIDERS } from "./providers/providers.ts";

const DOC = fileURLToPath(new URL("../../../docs/tools/webhook-payload-inspector.md", import.meta.url));
const committed = readFileSync(DOC, "utf8");

test("the provider, scheme and signal tables in the docs match the data", () => {
  assert.equal(
    committed,
    regenerate(committed),
    "run gen-docs.ts to regenerate docs/tools/webhook-payload-inspector.md",
  );
});

test("every provider row links its source or says, visibly, that it is unverified", () => {
  const rows = providerTable().split("\n").slice(2);
  assert.equal(rows.length, PROVIDERS.length);
  PROVIDERS.forEach((provider, index) => {
    const row = rows[index] ?? "";
    if (provider.checkedAgainst === undefined) assert.ok(row.endsWith(`| ${UNVERIFIED} |`), provider.name);
    else assert.ok(row.includes(`(${provider.checkedAgainst})`), provider.name);
  });
});

test("the curl example sends the tool's first example", () => {
  const body = /-d '(\{"payload".*\})'\n```/.exec(committed)?.[1];
  assert.ok(body, "a curl -d '{...}' example");
  assert.deepEqual(JSON.parse(body), webhookPayloadInspector.examples[0]?.input);
});

test("the abridged response shows what the tool returns for it", () => {
  const block = /Response \(abridged[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(committed)?.[1];
  assert.ok(block, "an abridged JSON response");
  const documented = JSON.parse(block) as { outputs: Record<string, unknown>; tool_version: string };
  const input = webhookPayloadInspector.examples[0]?.input as { payload: string; secret: string };
  const actual = run(input.payload, input.secret);
  assert.equal(documented.tool_version, webhookPayloadInspector.version);
  for (const member of ["signals", "timestamps", "formatted", "verification", "notes"] as const) {
    assert.deepEqual(documented.outputs[member], actual[member], member);
  }
  for (const row of documented.outputs.overview as Array<{ property: string; value: string }>) {
    assert.deepEqual(
      actual.overview.find((r) => r.property === row.property),
      row,
    );
  }
});
