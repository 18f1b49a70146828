/**
 * The console in real Chromium against a real server: each tool's form filled by its labels and
 * run, its tables read back; field errors beside their fields; 429 says when to retry; the account
 * page agrees with the API; and on every page no request leaves the origin, no console error, no
 * serious axe-core violation and no sideways scrolling at 390 px.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

type Row = Record<string, unknown>;
interface Contract {
  slug: string;
  input_schema: { properties: Record<string, { title: string; enum?: string[] }> };
  examples: { title: string; input: Row }[];
}

const PHONE = 390;
const execFileAsync = promisify(execFile);

/** The pages of a PDF as Chromium writes it (one page object each). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
}

/** The figure a person reads for a number: two decimals at most; a dash where a row has none. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number" && !Number.isInteger(value)) return String(Math.round(value * 100) / 100);
  return String(value);
}

/** A table's headings as shown, the output names they are for, and its cells' text. */
async function readTable(
  page: Page,
  name: string,
): Promise<{ headings: string[]; columns: string[]; rows: string[][] }> {
  const table = page.locator(`table[data-output="${name}"]`);
  const headings = await table.locator("thead th").allTextContents();
  const columns = await table
    .locator("thead th")
    .evaluateAll((ths) => ths.map((th) => th.getAttribute("data-column") ?? th.textContent ?? ""));
  const rows = await table
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  return { headings, columns, rows };
}

/** Text with its Markdown code spans as the page shows them (as code, without the backticks). */
function unticked(text: string): string {
  return text.replace(/`([^`]+)`/g, "$1");
}

async function fillByLabels(page: Page, contract: Contract, input: Row): Promise<void> {
  for (const [name, value] of Object.entries(input)) {
    const property = contract.input_schema.properties[name];
    assert.ok(property, `the example's field ${name} is in the schema`);
    const control = page.getByLabel(property.title, { exact: true });
    if (property.enum) await control.selectOption(String(value));
    else await control.fill(String(value));
  }
}

async function run(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
}

const missing = browserMissing();

describe("the web console in Chromium", { skip: missing ?? false }, () => {
  let c: Console;
  let contracts: Contract[];

  before(async () => {
    // A plan of two requests a minute, for the 429 test.
    c = await startConsole({ plans: { tiny: { rpm: 2, monthlyCredits: 100, minCredits: 1 } } });
    const list = (await c.api("/v1/tools/list")).body.tools as { slug: string }[];
    contracts = await Promise.all(
      list.map(async (t) => (await c.api(`/v1/tool/${t.slug}`)).body as unknown as Contract),
    );
  });
  after(async () => {
    await c?.close();
  });
  const calculator = (): Contract => {
    const contract = contracts.find((t) => t.slug === "retaining-wall-pressure-calculator");
    assert.ok(contract);
    return contract;
  };

  it("lists every tool with a link to its page, and asks for the key on the account page, with no key", async () => {
    const w = await c.open("/", { width: PHONE });
    for (const contract of contracts) {
      const link = w.page.locator(`a[href="/tools/${contract.slug}"]`);
      assert.equal(await link.count(), 1, contract.slug);
    }
    await assertCleanPage(w);
    const account = await c.open("/account", { width: PHONE });
    assert.equal(await account.page.locator("#account-needs-key").isVisible(), true);
    assert.equal(await account.page.locator("#account").isHidden(), true);
    await assertCleanPage(account);
  });

  it("runs each tool from its form, filled by the labels, and shows every outputs table", async () => {
    assert.ok(contracts.length >= 2);
    for (const contract of contracts) {
      const example = contract.examples[0];
      assert.ok(example, `${contract.slug} has an example`);
      const w = await c.open(`/tools/${contract.slug}`, { key: c.key, width: PHONE });
      await fillByLabels(w.page, contract, example.input);
      await run(w.page);
      assert.equal(await w.page.locator("#problem").isHidden(), true, `${contract.slug} ran`);

      const credits = (await c.api("/v1/me/credits")).body;
      const status = await w.page.locator("#run-status").textContent();
      assert.match(status ?? "", new RegExp(`${credits.credits_remaining} remaining this period`));

      const expected = (await c.api(`/v1/tool/${contract.slug}`, c.key, example.input)).body.outputs as Row;
      let tables = 0;
      for (const [name, value] of Object.entries(expected)) {
        if (!Array.isArray(value) || value.length === 0 || typeof value[0] !== "object") continue;
        tables += 1;
        const rows = value as Row[];
        const shownTable = await readTable(w.page, name);
        const columns = Object.keys(rows[0] ?? {});
        assert.deepEqual(shownTable.columns, columns, `${contract.slug} ${name} columns`);
        for (const heading of shownTable.headings) {
          assert.match(
            heading,
            /^[A-Z][^-_]*$/,
            `${contract.slug} ${name}: "${heading}" is a heading for people`,
          );
        }
        assert.deepEqual(
          shownTable.rows,
          rows.map((row) => columns.map((col) => unticked(shown(row[col])))),
          `${contract.slug} ${name} rows`,
        );
      }
      assert.ok(tables > 0, `${contract.slug} has tables`);
      await assertCleanPage(w);
      await w.page.close();
    }
  });

  it("draws the calculator's pressure diagram: the wall, depth down, pressure across, the units and the resultant at its height", async () => {
    const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: c.key });
    await fillByLabels(w.page, calculator(), { height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });
    await run(w.page);
    const chart = w.page.locator('figure[data-output="diagram-chart"] svg');
    const texts = await chart.locator("text").allTextContents();
    assert.ok(texts.includes("Depth (m) ↓"), texts.join("|"));
    assert.ok(texts.includes("Pressure (kPa) →"), texts.join("|"));
    // Depth 0 at the top, the base (5 m) at the bottom; pressure grows to the right.
    const points = await chart
      .locator("circle")
      .evaluateAll((cs) => cs.map((c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]));
    assert.equal(points.length, 5);
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1] ?? [];
      const [x1, y1] = points[i] ?? [];
      assert.ok((y1 ?? 0) > (y0 ?? 0) && (x1 ?? 0) > (x0 ?? 0), "deeper is lower and pressure grows");
    }
    // The wall stands from the top to the base, its back where the pressure starts.
    const wall = await chart.locator("rect.wall").first().boundingBox();
    const topY = points[0]?.[1] ?? 0;
    const baseY = points[4]?.[1] ?? 0;
    const svg = await chart.boundingBox();
    assert.ok(wall && svg);
    const scale = svg.width / 600;
    assert.ok(
      Math.abs(wall.y - (svg.y + topY * scale)) < 1 &&
        Math.abs(wall.y + wall.height - (svg.y + baseY * scale)) < 1,
    );
    // The resultant ends on the wall's back at values.thrustHeight above the base, with its value.
    const values = (
      await c.api("/v1/tool/retaining-wall-pressure-calculator", c.key, {
        height: 5,
        unitWeight: 18,
        frictionAngle: 30,
        surcharge: 10,
      })
    ).body.outputs as { values: { thrust: number; thrustHeight: number } };
    const arrow = chart.locator("line.resultant");
    const [x2, y2] = [Number(await arrow.getAttribute("x2")), Number(await arrow.getAttribute("y2"))];
    assert.ok(
      Math.abs(y2 - (baseY - (values.values.thrustHeight / 5) * (baseY - topY))) < 0.01,
      `arrow at y ${y2}`,
    );
    assert.ok(Math.abs(svg.x + x2 * scale - (wall.x + wall.width)) < 4 * scale, "the arrow ends on the wall");
    assert.ok(texts.includes("P = 91.67 kN/m"), texts.join("|"));
    assert.ok(texts.includes("1.82 m above the base"), texts.join("|"));
    assert.match(
      (await chart.getAttribute("aria-label")) ?? "",
      /3\.33 kPa at depth 0 m.*33\.33 kPa at depth 5 m.*Resultant 91\.67 kN\/m at 1\.82 m above the base/,
    );
    await assertCleanPage(w);
  });

  it("puts the calculator's inputs beside its results on a wide screen and above them on a phone", async () => {
    for (const width of [1280, PHONE]) {
      const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: c.key, width });
      await w.page.locator("button.example").first().click();
      await run(w.page);
      const form = await w.page.locator("#tool-form").boundingBox();
      const results = await w.page.locator("#results").boundingBox();
      const curl = await w.page.locator("#curl").boundingBox();
      assert.ok(form && results && curl);
      if (width === PHONE) {
        assert.ok(results.y >= form.y + form.height, "the results are below the form");
      } else {
        assert.ok(results.x >= form.x + form.width, "the results are right of the form");
        assert.ok(results.y < form.y + form.height, "and beside it");
      }
      assert.ok(curl.y >= results.y + results.height, "the curl comes after the results");
      await assertCleanPage(w);
      await w.page.close();
    }
  });

  it("prints each example as a calculation sheet on one A4 page: inputs, method, components, assumptions and diagram, no button and no curl", async () => {
    for (const example of calculator().examples) {
      const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: c.key });
      await w.page.getByRole("button", { name: example.title }).click();
      await run(w.page);
      await w.page.emulateMedia({ media: "print" });
      assert.equal(await w.page.locator("button:visible").count(), 0, `${example.title}: buttons`);
      for (const hidden of ["#curl", "#tool-form", "header.site", "footer.site"])
        assert.equal(await w.page.locator(hidden).isVisible(), false, `${example.title}: ${hidden}`);
      const inputs = w.page.locator(".inputs-used table");
      assert.equal(await inputs.isVisible(), true, `${example.title}: the inputs`);
      const inputRows = await inputs.locator("tbody tr").allTextContents();
      assert.ok(
        inputRows.some((row) => /^Wall Height \(H\)\d/.test(row)),
        inputRows.join("|"),
      );
      // The method repeats every figure of the results table with its working, so it prints instead.
      assert.equal(await w.page.locator('table[data-output="result"]').isVisible(), false);
      for (const shownPart of [
        'table[data-output="method"]',
        'table[data-output="components"]',
        'ul[data-output="assumptions"]',
        'figure[data-output="diagram-chart"]',
        "h1",
        "#sheet-meta",
      ])
        assert.equal(await w.page.locator(shownPart).isVisible(), true, `${example.title}: ${shownPart}`);
      const pdf = await w.page.pdf({ format: "A4", preferCSSPageSize: true });
      assert.equal(pdfPages(pdf), 1, `${example.title} prints on ${pdfPages(pdf)} pages`);
      await w.page.close();
    }
  });

  it("copies the exact call as curl, with the key left in $TOOLRUN_KEY, and that call gives the same answer", async () => {
    const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: c.key });
    await fillByLabels(w.page, calculator(), {
      height: 4,
      unitWeight: 19,
      frictionAngle: 32,
      state: "passive",
    });
    await w.page.getByRole("button", { name: "Copy as curl" }).click();
    const copied = await w.page.evaluate<string>("navigator.clipboard.readText()");
    assert.equal(copied, await w.page.locator("#curl-text").textContent());
    assert.ok(copied.includes('"Authorization: Bearer $TOOLRUN_KEY"'));
    assert.ok(!copied.includes(c.key), "the key is never in the command");

    await run(w.page);
    const made = (await w.page.locator("#curl-text").textContent()) ?? "";
    assert.equal(made, copied, "the call made is the call copied");
    const shell = await execFileAsync("sh", ["-c", made], { env: { ...process.env, TOOLRUN_KEY: c.key } });
    const answer = JSON.parse(shell.stdout) as { outputs: Row };
    const expected = (
      await c.api("/v1/tool/retaining-wall-pressure-calculator", c.key, {
        units: "metric",
        state: "passive",
        height: 4,
        unitWeight: 19,
        frictionAngle: 32,
        backfillSlope: 0,
        surcharge: 0,
      })
    ).body;
    assert.deepEqual(answer.outputs, expected.outputs);
    await assertCleanPage(w);
  });

  it("shows the inspector's verdict, its descriptions with their code as code, and the formatted body highlighted", async () => {
    const contract = contracts.find((t) => t.slug === "webhook-payload-inspector");
    const example = contract?.examples[0];
    assert.ok(contract && example);
    const w = await c.open("/tools/webhook-payload-inspector", { key: c.key });
    await w.page.getByRole("button", { name: example.title }).click();
    assert.equal(await w.page.getByLabel("Signing Secret").getAttribute("autocomplete"), "off");
    await run(w.page);
    const expected = (await c.api("/v1/tool/webhook-payload-inspector", c.key, example.input)).body
      .outputs as {
      verification: { status: string; reason: string };
      formatted: string;
      signals: { meaning: string }[];
    };
    const verdict = w.page.locator('[data-output="verification"]');
    assert.equal(await verdict.locator(".verdict-status").textContent(), expected.verification.status);
    const reason = verdict.locator(".verdict-reason");
    assert.equal(await reason.textContent(), unticked(expected.verification.reason));
    assert.match(expected.verification.reason, /`sha256=`/);
    assert.deepEqual(await reason.locator("code").allTextContents(), ["sha256="]);
    // The signals' meanings likewise: code, never backticks.
    const meanings = await readTable(w.page, "signals");
    assert.ok(expected.signals.some((row) => row.meaning.includes("`")));
    assert.ok(meanings.rows.every((row) => !row.join("").includes("`")));
    assert.ok((await w.page.locator('table[data-output="signals"] td code').count()) > 0);
    const timestamps = await readTable(w.page, "timestamps");
    assert.deepEqual(timestamps.headings, ["Field", "Raw value", "UTC", "Unix", "Kind"]);
    // The body reads as before, its JSON keys, strings and numbers told apart.
    const body = w.page.locator('pre[data-output="formatted"]');
    assert.equal(await body.textContent(), expected.formatted);
    assert.ok((await body.locator(".j-key").count()) > 0 && (await body.locator(".j-number").count()) > 0);
    assert.equal(await body.locator(".j-key").first().textContent(), '"ref"');
    await assertCleanPage(w);
  });

  it("puts the signing secret in the call as curl as $WEBHOOK_SECRET, never in clear, and that call gives the same answer", async () => {
    const contract = contracts.find((t) => t.slug === "webhook-payload-inspector");
    const example = contract?.examples[0];
    assert.ok(contract && example && typeof example.input.secret === "string");
    // The example's secret, and one a shell or JSON would trip on (a PEM key has line breaks).
    for (const secret of [String(example.input.secret), `it's "quoted" \\ and\nbroken $HOME`]) {
      const w = await c.open("/tools/webhook-payload-inspector", { key: c.key });
      await w.page.getByRole("button", { name: example.title }).click();
      await w.page.getByLabel("Signing Secret").fill(secret);
      await w.page.getByRole("button", { name: "Copy as curl" }).click();
      const copied = await w.page.evaluate<string>("navigator.clipboard.readText()");
      assert.ok(copied.includes('"$WEBHOOK_SECRET"') && copied.includes("$TOOLRUN_KEY"), copied);
      assert.ok(!copied.includes(secret) && !copied.includes(c.key), "no secret in the command");
      assert.match((await w.page.locator("#curl-note").textContent()) ?? "", /WEBHOOK_SECRET/);
      const shell = await execFileAsync("sh", ["-c", copied], {
        env: { ...process.env, TOOLRUN_KEY: c.key, WEBHOOK_SECRET: secret },
      });
      const answer = JSON.parse(shell.stdout) as { outputs: Row };
      const expected: Row = (
        await c.api("/v1/tool/webhook-payload-inspector", c.key, { ...example.input, secret })
      ).body;
      assert.deepEqual(answer.outputs, expected.outputs);
      await assertCleanPage(w);
      await w.page.close();
    }
  });

  it("answers an unknown address with the 404 page, not a JSON problem, and its link leads back to the tools", async () => {
    for (const [path, width] of [
      ["/tools/x", 1280],
      ["/acount", PHONE],
      ["/docs/errors/nope", 1280],
    ] as const) {
      const w = await c.open(path, { width });
      assert.equal(await w.page.getByRole("heading", { level: 1 }).textContent(), "Page not found", path);
      assert.equal(
        await w.page.getByRole("main").getByRole("link", { name: "The API reference" }).getAttribute("href"),
        `${c.origin}/docs`,
        path,
      );
      assert.doesNotMatch((await w.page.getByRole("main").textContent()) ?? "", /acount|nope|\/x\b/, path);
      // The browser reports the 404 itself; nothing else may appear.
      w.errors.splice(0, w.errors.length, ...w.errors.filter((e) => !/status of 404/.test(e)));
      await assertCleanPage(w);
      await w.page.getByRole("main").getByRole("link", { name: "The tools" }).click();
      await w.page.waitForURL(`${c.origin}/`);
      assert.equal(await w.page.getByRole("heading", { level: 1 }).textContent(), "Tools", path);
      assert.equal(
        await w.page.getByRole("link", { name: "Retaining Wall Pressure Calculator" }).getAttribute("href"),
        "/tools/retaining-wall-pressure-calculator",
      );
      await w.page.close();
    }
  });

  it("shows a field's error beside the field, the code linked to its page, and charges nothing", async () => {
    const before = (await c.api("/v1/me/credits")).body.credits_used;
    const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: c.key, width: PHONE });
    await fillByLabels(w.page, calculator(), { height: 5, unitWeight: 18, frictionAngle: 60 });
    await run(w.page);
    const field = w.page.getByLabel("Friction Angle (phi)");
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    assert.equal(await w.page.locator("#error-frictionAngle").textContent(), "must be at most 50");
    assert.match((await field.getAttribute("aria-describedby")) ?? "", /error-frictionAngle/);
    assert.equal(await w.page.locator("#error-height").isHidden(), true);
    const code = w.page.locator("#problem h2 a");
    assert.equal(await code.textContent(), "validation_error");
    assert.match((await code.getAttribute("href")) ?? "", /\/docs\/errors\/validation_error$/);
    assert.equal(await w.page.evaluate<string | undefined>("document.activeElement?.id"), "problem");
    assert.equal((await c.api("/v1/me/credits")).body.credits_used, before);
    // The browser reports the 400 answer itself as a failed resource; nothing else may appear.
    w.errors.splice(0, w.errors.length, ...w.errors.filter((e) => !/status of 400/.test(e)));
    await assertCleanPage(w);
  });

  it("says when to retry after a 429", async () => {
    const w = await c.open("/tools/retaining-wall-pressure-calculator", { key: await c.createKey("tiny") });
    await fillByLabels(w.page, calculator(), { height: 5, unitWeight: 18, frictionAngle: 30 });
    // Two requests a minute: within five runs one is refused whatever the minute boundary does.
    let code: string | null = null;
    for (let i = 0; i < 5 && code !== "rate_limited"; i++) {
      await w.page.locator("#run-status").evaluate((el) => {
        el.textContent = "";
      });
      await run(w.page);
      code =
        (await w.page.locator("#problem:not([hidden]) h2 code").count()) > 0
          ? await w.page.locator("#problem h2 code").textContent()
          : null;
    }
    assert.equal(code, "rate_limited");
    const retry = w.page.locator("#problem .retry");
    const seconds = Number(await retry.getAttribute("data-retry-after"));
    assert.ok(seconds >= 1 && seconds <= 60, String(seconds));
    assert.match((await retry.textContent()) ?? "", new RegExp(`^Try again in ${seconds} s \\(at \\d`));
    w.errors.splice(0, w.errors.length, ...w.errors.filter((e) => !/status of 429/.test(e)));
    await assertCleanPage(w);
  });

  it("shows the account (id, name, plan) beside the key in use, its credits as /v1/me/credits, and usage as /v1/me/usage", async () => {
    const w = await c.open("/account", { key: c.key, width: PHONE });
    await w.page.locator("#account:not([hidden])").waitFor();
    const credits = (await c.api("/v1/me/credits")).body;
    const usage = (await c.api("/v1/me/usage?limit=20")).body;
    const figure = (name: string) => w.page.locator(`dd[data-field="${name}"]`).textContent();
    assert.equal(await figure("plan"), credits.plan);
    assert.equal(await figure("account_id"), credits.account_id);
    assert.equal(await figure("account_name"), credits.account_name);
    assert.equal(await figure("key"), `${c.key.slice(0, c.key.lastIndexOf("_") + 5)}…`);
    assert.equal(await figure("credits_used"), String(credits.credits_used));
    assert.equal(await figure("credits_remaining"), String(credits.credits_remaining));
    assert.equal(await figure("monthly_allowance"), String(credits.monthly_allowance));
    assert.ok(Number(credits.credits_used) > 0);
    const byTool = usage.by_tool as { tool: string; calls: number; credits: number }[];
    assert.deepEqual(
      (await readTable(w.page, "by_tool")).rows,
      byTool.map((t) => [t.tool, String(t.calls), String(t.credits)]),
    );
    assert.equal(await w.page.locator("svg.bars rect").count(), byTool.length);
    const recent = usage.recent as { request_id: string; key_id: string }[];
    assert.deepEqual(
      (await readTable(w.page, "recent")).rows.map((row) => [row[4], row[5]]),
      recent.map((r) => [r.request_id, r.key_id]),
    );
    await assertCleanPage(w);
  });

  it("pages through the recent calls with Show older calls", async () => {
    const key = await c.createKey("builder");
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const answer = await c.api("/v1/tool/retaining-wall-pressure-calculator", key, {
        height: 1 + i,
        unitWeight: 18,
        frictionAngle: 30,
      });
      ids.unshift(String(answer.body.request_id));
    }
    const w = await c.open("/account", { key });
    await w.page.locator("#account:not([hidden])").waitFor();
    const shownIds = async () => (await readTable(w.page, "recent")).rows.map((row) => row[4]);
    assert.deepEqual(await shownIds(), ids.slice(0, 20));
    await w.page.getByRole("button", { name: "Show older calls" }).click();
    await w.page.locator("#recent-more[hidden]").waitFor({ state: "attached" });
    assert.deepEqual(await shownIds(), ids);
    await assertCleanPage(w);
  });

  it("takes the key and runs the calculator with the keyboard alone, in the form's order, then forgets the key", async () => {
    const w = await c.open("/tools/retaining-wall-pressure-calculator");
    const focused = () =>
      w.page.evaluate<string>("document.activeElement?.id || document.activeElement?.tagName");
    const tabTo = async (id: string, order: string[]) => {
      for (let i = 0; i < 40 && (await focused()) !== id; i++) {
        await w.page.keyboard.press("Tab");
        order.push(await focused());
      }
      assert.equal(await focused(), id);
    };
    const order: string[] = [];
    await tabTo("api-key", order);
    await w.page.keyboard.type(c.key);
    await w.page.keyboard.press("Enter");
    assert.equal(await focused(), "key-forget");
    assert.equal(await w.page.evaluate<string | null>('sessionStorage.getItem("toolrun.apiKey")'), c.key);
    assert.equal(await w.page.evaluate<number>("localStorage.length"), 0);
    const values: Record<string, string> = { height: "5", unitWeight: "18", frictionAngle: "30" };
    for (const [name, value] of Object.entries(values)) {
      await tabTo(`field-${name}`, order);
      await w.page.keyboard.press("ControlOrMeta+A");
      await w.page.keyboard.type(value);
    }
    await tabTo("run", order);
    await w.page.keyboard.press("Enter");
    await w.page.locator("#results:not([hidden])").waitFor();
    const fields = order.filter((id) => id.startsWith("field-"));
    // Every field, in the schema's order (groups keep it).
    assert.deepEqual(
      fields,
      Object.keys(calculator().input_schema.properties).map((name) => `field-${name}`),
    );
    assert.ok(fields.includes("field-surcharge"));
    assert.equal((await readTable(w.page, "result")).rows[0]?.[0], "Earth Pressure State");
    await assertCleanPage(w);
    await w.page.getByRole("button", { name: "Forget key" }).click();
    assert.equal(await w.page.evaluate<string | null>('sessionStorage.getItem("toolrun.apiKey")'), null);
    assert.equal(await focused(), "api-key");
  });
});
