/**
 * What the console draws from annotations and shapes no shipped tool may have yet, in real
 * Chromium: a fixture tool (test/console/layered-wall-tool.ts) whose inputs carry `x-group` and
 * `x-unit` and whose diagram has a water part, served by the application built in this process.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { layeredWallTool } from "../../console/layered-wall-tool.ts";
import { assertCleanPage, browserMissing, type Site, startToolsSite } from "./harness.ts";

const PAGE = "/tools/layered-wall";
/** The fixture's example, "Metric, water table at 2 m": 6 m high, water 2 m down. */
const EXAMPLE = layeredWallTool.examples[0]?.input;

const missing = browserMissing();

describe("forms and diagrams from annotations, in Chromium", { skip: missing ?? false }, () => {
  let site: Site;
  before(async () => {
    site = await startToolsSite([layeredWallTool]);
  });
  after(() => site?.close());

  it("puts the fields of each x-group in a group named by its title, in schema order", async () => {
    const w = await site.open(PAGE, { width: 390 });
    const groups = await w.page
      .getByRole("group")
      .evaluateAll((sets) =>
        sets.map((set) => [
          set.querySelector("legend")?.textContent,
          [...set.querySelectorAll("label")].map((label) => label.textContent),
        ]),
      );
    assert.deepEqual(groups, [
      ["Wall", ["Wall Height (H)"]],
      ["Soil", ["Soil Unit Weight (gamma)", "Friction Angle (phi)"]],
      ["Backfill and loads", ["Uniform Surcharge (q)"]],
      ["Water", ["Water Table Depth (zw)"]],
    ]);
    const soil = w.page.getByRole("group", { name: "Soil" });
    assert.equal(await soil.getByLabel("Friction Angle (phi)").count(), 1);
    // Ungrouped, `units` stands alone before the groups.
    assert.equal(await w.page.getByRole("group").getByLabel("Unit System").count(), 0);
    await assertCleanPage(w);
  });

  it("shows each field's unit beside it and changes it with the unit system", async () => {
    const w = await site.open(PAGE);
    const units = () =>
      Promise.all(
        ["height", "unitWeight", "frictionAngle", "surcharge", "waterDepth"].map((name) =>
          w.page.locator(`#unit-${name}`).textContent(),
        ),
      );
    assert.deepEqual(await units(), ["m", "kN/m³", "degrees", "kPa", "m"]);
    // The unit is read with the box, as part of its description.
    const height = w.page.getByLabel("Wall Height (H)");
    assert.match((await height.getAttribute("aria-describedby")) ?? "", /unit-height/);
    await w.page.getByLabel("Unit System").selectOption("imperial");
    assert.deepEqual(await units(), ["ft", "pcf", "degrees", "psf", "ft"]);
    // An example (metric by default) puts them back.
    await w.page.getByRole("button", { name: "Metric, water table at 2 m" }).click();
    assert.deepEqual(await units(), ["m", "kN/m³", "degrees", "kPa", "m"]);
    await assertCleanPage(w);
  });

  it("draws the soil and the water pressure stacked, told apart by a legend, with the resultant", async () => {
    const w = await site.open(PAGE, { key: site.key });
    await w.page.getByRole("button", { name: "Metric, water table at 2 m" }).click();
    await w.page.getByRole("button", { name: "Run", exact: true }).click();
    await w.page.locator("#results:not([hidden])").waitFor();
    const chart = w.page.locator('figure[data-output="diagram-chart"]');
    const svg = chart.locator("svg");
    assert.equal(await svg.locator("polygon.pressure-area").count(), 1);
    assert.equal(await svg.locator("polygon.water-area").count(), 1);
    assert.deepEqual(await chart.locator(".legend li").allTextContents(), ["Soil (effective)", "Water"]);
    // The water part spans the water table (2 m) to the base (6 m): the heights of the points there.
    const { diagram } = (await site.api("/v1/tool/layered-wall", site.key, EXAMPLE)).body.outputs as {
      diagram: { depth: number }[];
    };
    const pointY = async (depth: number) =>
      Number(
        await svg
          .locator("circle")
          .nth(diagram.findIndex((p) => p.depth === depth))
          .getAttribute("cy"),
      );
    const waterYs = ((await svg.locator("polygon.water-area").getAttribute("points")) ?? "")
      .split(" ")
      .map((pair) => Number(pair.split(",")[1]));
    assert.equal(Math.min(...waterYs), await pointY(2));
    assert.equal(Math.max(...waterYs), await pointY(6));
    assert.match((await svg.getAttribute("aria-label")) ?? "", /Of that, water 39\.24 kPa at the base\./);
    assert.equal(await svg.locator("line.resultant").count(), 1);
    // The diagram's table gives the water part its own column, with its unit.
    const headings = await w.page.locator('table[data-output="diagram"] thead th').allTextContents();
    assert.deepEqual(headings, ["Depth (m)", "Pressure (kPa)", "Water pressure (kPa)"]);
    // The inputs of the run, with their units, for the printed sheet.
    await w.page.emulateMedia({ media: "print" });
    const inputs = await w.page.locator(".inputs-used tbody tr").allTextContents();
    assert.deepEqual(inputs, [
      "Unit Systemmetric",
      "Wall Height (H)6 m",
      "Soil Unit Weight (gamma)18 kN/m³",
      "Friction Angle (phi)30 degrees",
      "Uniform Surcharge (q)0 kPa",
      "Water Table Depth (zw)2 m",
    ]);
    await w.page.emulateMedia({ media: "screen" });
    await assertCleanPage(w);
  });
});
