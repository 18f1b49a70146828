/**
 * The document's generated tables must equal what gen-docs.ts renders from the provider table now.
 * On failure run `npx node src/tools/webhook-payload-inspector/gen-docs.ts` and commit the result.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { regenerate } from "./gen-docs.ts";

const DOC = fileURLToPath(new URL("../../../docs/tools/webhook-payload-inspector.md", import.meta.url));

test("the provider, scheme and signal tables in the docs match the data", () => {
  const committed = readFileSync(DOC, "utf8");
  assert.equal(
    committed,
    regenerate(committed),
    "run gen-docs.ts to regenerate docs/tools/webhook-payload-inspector.md",
  );
});
