/**
 * The client's types are generated from the live document: regenerating them from what the app
 * serves now must give the checked-in file, so the client cannot drift from the API.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { clientTypes, liveDocument, SCHEMA_FILE } from "../../clients/typescript/generate.ts";

it("clients/typescript/src/schema.ts is what the live /openapi.json generates (npm run client:generate)", async () => {
  assert.equal(await clientTypes(await liveDocument()), await readFile(SCHEMA_FILE, "utf8"));
});
