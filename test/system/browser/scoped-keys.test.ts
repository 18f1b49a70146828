/**
 * The console in real Chromium with a key limited to one tool: the tools page shows only that
 * tool's card (and says how many of the tools the key may use), another tool's page says the key
 * may not use it and offers no form, the key's own tool's page works as ever; forgetting the key
 * shows every tool again. Read by roles and labels, as a person would.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

const WALL = "retaining-wall-pressure-calculator";
const INSPECTOR = "webhook-payload-inspector";

const missing = browserMissing();

describe("the console with a key limited to some tools, in Chromium", { skip: missing ?? false }, () => {
  let c: Console;
  let limited: string;
  let names: Map<string, string>;

  before(async () => {
    c = await startConsole();
    limited = await c.createKey("free", ["--tools", WALL]);
    const list = (await c.api("/v1/tools/list")).body.tools as { slug: string; name: string }[];
    names = new Map(list.map((tool) => [tool.slug, tool.name]));
  });
  after(async () => {
    await c?.close();
  });

  const nameOf = (slug: string): string => {
    const name = names.get(slug);
    assert.ok(name, slug);
    return name;
  };

  it("lists only the key's tools, saying so, and every tool again once the key is forgotten", async () => {
    const w = await c.open("/", { key: limited });
    const note = w.page.getByRole("status").filter({ hasText: "This API key may use" });
    await note.waitFor();
    assert.equal(await note.textContent(), "This API key may use 1 of the 2 tools; only those are shown.");
    await w.page.getByRole("link", { name: nameOf(INSPECTOR) }).waitFor({ state: "hidden" });
    assert.equal(await w.page.getByRole("link", { name: nameOf(WALL) }).isVisible(), true);
    await assertCleanPage(w);

    await w.page.getByRole("button", { name: "Forget key" }).click();
    await w.page.getByRole("link", { name: nameOf(INSPECTOR) }).waitFor();
    assert.equal(await w.page.getByRole("link", { name: nameOf(WALL) }).isVisible(), true);
    assert.equal(await note.isVisible(), false);
  });

  it("says on another tool's page that the key may not use it, with no form to run", async () => {
    const w = await c.open(`/tools/${INSPECTOR}`, { key: limited });
    const alert = w.page.getByRole("alert").filter({ hasText: "may not use this tool" });
    await alert.waitFor();
    assert.equal(await w.page.getByRole("button", { name: "Run", exact: true }).isVisible(), false);
    assert.equal(
      await alert.getByRole("link", { name: "See the tools it may use" }).getAttribute("href"),
      "/",
    );
    await assertCleanPage(w);
  });

  it("runs the key's own tool from its page as any key does", async () => {
    const w = await c.open(`/tools/${WALL}`, { key: limited });
    // The page's script has had the key's catalog once the page is quiet.
    await w.page.waitForLoadState("networkidle");
    // The first example's button (each is named by its example's title).
    await w.page.locator("button.example").first().click();
    await w.page.getByRole("button", { name: "Run", exact: true }).click();
    await w.page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
    assert.equal(await w.page.locator("#problem").isHidden(), true);
    assert.equal(
      await w.page.getByRole("alert").filter({ hasText: "may not use this tool" }).isVisible(),
      false,
    );
    await assertCleanPage(w);
  });
});
