/**
 * The calculator's calculation sheet in Chromium: the title block filled by its labels, kept in the
 * page's address and printed at the head of one A4 page whose component moments add up to the
 * total moment; the method of a Coulomb case with its formula and values; the ordinates labelled on
 * the diagram at the surface, the tension crack, the water table and the base.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

const PAGE = "/tools/retaining-wall-pressure-calculator";

/** The pages of a PDF as Chromium writes it (one page object each). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
}

async function runExample(page: Page, title: string): Promise<void> {
  await page.getByRole("button", { name: title }).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
}

/** A table's body cells by its caption, as the page shows them. */
async function cells(page: Page, caption: string): Promise<string[][]> {
  return page
    .getByRole("table", { name: caption, exact: true })
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
}

const TITLE_BLOCK = {
  Project: "Riverside Quay, phase 2",
  "Job number": "J-2291",
  "Wall reference": "RW3 (east)",
  By: "A. Bell",
  Checked: "C. Dunn",
  Date: "2026-11-29",
  Revision: "P1",
};

describe("the calculator's calculation sheet in Chromium", { skip: browserMissing() ?? false }, () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(async () => {
    await c?.close();
  });

  it("prints the title block filled by its labels, kept in the address, on one A4 page whose moments add up", async () => {
    const w = await c.open(PAGE, { key: c.key });
    for (const [label, value] of Object.entries(TITLE_BLOCK))
      await w.page.getByLabel(label, { exact: true }).fill(value);
    // The page's own location: Playwright learns of history.replaceState a moment later.
    const address = new URL(await w.page.evaluate<string>("location.href"));
    assert.equal(address.searchParams.get("project"), TITLE_BLOCK.Project);
    assert.equal(address.searchParams.get("rev"), TITLE_BLOCK.Revision);

    // The same address makes the same sheet again.
    const again = await c.open(`${address.pathname}${address.search}`, { key: c.key });
    for (const [label, value] of Object.entries(TITLE_BLOCK))
      assert.equal(await again.page.getByLabel(label, { exact: true }).inputValue(), value, label);
    await w.page.close();

    const page = again.page;
    await runExample(page, "Metric, level backfill, active, 10 kPa surcharge");
    await assertCleanPage(again);
    await page.emulateMedia({ media: "print" });
    const block = page.getByRole("region", { name: "Title block" });
    assert.equal(await block.isVisible(), true);
    for (const [label, value] of Object.entries(TITLE_BLOCK)) {
      const cell = block.locator(".title-block-cell", { hasText: label });
      assert.equal(await cell.locator(".title-block-value").textContent(), value, label);
    }
    assert.equal(await page.locator("#title-block").isVisible(), false, "the boxes are not printed");
    // The title block heads the sheet: above the tool's name.
    const [blockBox, titleBox] = [await block.boundingBox(), await page.locator("h1").boundingBox()];
    assert.ok(blockBox && titleBox && blockBox.y + blockBox.height <= titleBox.y);

    const rows = await cells(page, "Components");
    const total = rows.at(-1);
    assert.equal(total?.[0], "Total");
    const moment = (row: string[] | undefined) => Number(row?.at(-1));
    const parts = rows.slice(0, -1);
    assert.deepEqual(
      parts.map((row) => row[0]),
      ["Surcharge", "Soil"],
    );
    const sum = parts.reduce((acc, row) => acc + moment(row), 0);
    assert.ok(Math.abs(sum - moment(total)) <= 0.01 * parts.length, `${sum} against ${moment(total)}`);
    const api = await c.api(PAGE.replace("/tools/", "/v1/tool/"), c.key, {
      units: "metric",
      state: "active",
      height: 5,
      unitWeight: 18,
      frictionAngle: 30,
      surcharge: 10,
    });
    const values = (api.body.outputs as { values: { overturningMoment: number } }).values;
    assert.equal(moment(total), Math.round(values.overturningMoment * 100) / 100);

    const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
    assert.equal(pdfPages(pdf), 1);
    await page.close();
  });

  it("shows the method of a Coulomb case: the coefficient's formula, the values put in, its result", async () => {
    const w = await c.open(PAGE, { key: c.key });
    await runExample(w.page, "Metric, Coulomb, wall friction 2/3 of phi, backfill sloping at 10°, active");
    const method = w.page.getByRole("table", { name: "Method", exact: true });
    assert.deepEqual(await method.locator("thead th").allTextContents(), [
      "Quantity",
      "Formula",
      "Substitution",
      "Result",
    ]);
    const coefficient = method.getByRole("row", { name: /Active coefficient \(Coulomb\)/ });
    const [quantity, formula, substitution, result] = await coefficient.locator("td").allTextContents();
    assert.equal(quantity, "Active coefficient (Coulomb)");
    assert.equal(
      formula,
      "Ka = cos²(φ − θ) / (cos²θ·cos(δ + θ)·[1 + √(sin(φ + δ)·sin(φ − β) / (cos(δ + θ)·cos(θ − β)))]²)",
    );
    assert.match(substitution ?? "", /^cos²\(33° − 0°\) \/ .*sin\(33° \+ 22°\)·sin\(33° − 10°\)/);
    const shown = await w.page
      .getByRole("table", { name: "Result", exact: true })
      .getByRole("row", { name: /Active Coefficient/ })
      .locator("td")
      .nth(1)
      .textContent();
    assert.equal(result, shown);
    assert.ok(
      await method
        .getByRole("row", { name: /Horizontal component/ })
        .getByText("Ph = P·cos(δ + θ)")
        .isVisible(),
    );
    const assumptions = await w.page.locator('ul[data-output="assumptions"] li').allTextContents();
    assert.ok(
      assumptions.some((line) => line.startsWith("Coulomb: a plane sliding wedge")),
      assumptions.join("|"),
    );
    await assertCleanPage(w);
    await w.page.close();
  });

  it("labels the diagram's ordinates at the surface, the tension crack, the water table and the base", async () => {
    const w = await c.open(PAGE, { key: c.key });
    await runExample(w.page, "Metric, cohesive backfill with a water table 2 m down");
    const chart = w.page.getByRole("img", { name: /^Pressure diagram/ });
    const name = (await chart.getAttribute("aria-label")) ?? "";
    assert.match(
      name,
      /Ordinates: 0 kPa at the surface \(0 m\), 0 kPa at the tension crack \(1\.78 m\), 1\.56 kPa at the water table \(2 m\), 56\.71 \(water 39\.24\) kPa at the base \(6 m\)\./,
    );
    const ordinate = (key: string) => chart.locator(`[data-ordinate="${key}"]`).textContent();
    assert.equal(await ordinate("surface"), "0");
    assert.equal(await ordinate("crack"), "0");
    assert.equal(await ordinate("water-table"), "1.56");
    assert.equal(await ordinate("base"), "56.71 (water 39.24)");
    assert.ok(await chart.getByText("tension crack, 1.78 m").isVisible());
    await assertCleanPage(w);
    await w.page.close();
  });
});
