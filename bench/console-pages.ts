/**
 * The console's screenshots (docs/console/*.png) and page weight, from real Chromium against a real
 * `toolrun serve` on a fresh SQLite file: `npm run console:pages`. Prints the weight table that
 * docs/console.md quotes. `overview.png`, the README's, is one screen (1280 × 900), as a visitor
 * first sees it; the others are whole pages.
 */
import { mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { startConsole } from "../test/system/browser/harness.ts";

const OUT = new URL("../docs/console/", import.meta.url);
const CALCULATOR = "retaining-wall-pressure-calculator";
const INSPECTOR = "webhook-payload-inspector";

mkdirSync(OUT, { recursive: true });
const c = await startConsole();
const weights: string[] = [];

const A4_WIDTH = 794; // 210 mm at 96 px per inch

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, OUT).pathname, fullPage });
  console.error(`wrote docs/console/${name}.png`);
}

/** Bytes of the page and of every file it loaded, as sent and gzipped, fetched afresh. */
async function weigh(label: string, path: string, key?: string): Promise<void> {
  const { page } = await c.open(path, key ? { key } : {});
  const urls = new Set<string>([`${c.origin}${path}`]);
  page.on("request", (request) => urls.add(request.url()));
  await page.reload({ waitUntil: "networkidle" });
  let raw = 0;
  let gzip = 0;
  let files = 0;
  for (const url of urls) {
    if (new URL(url).pathname.startsWith("/v1/")) continue;
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body).length;
    files += 1;
  }
  weights.push(`| ${label} | ${files} | ${(raw / 1024).toFixed(1)} KiB | ${(gzip / 1024).toFixed(1)} KiB |`);
  await page.close();
}

async function run(page: Page, example: number): Promise<void> {
  await page.locator("button.example").nth(example).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
}

try {
  const index = await c.open("/");
  await shot(index.page, "tools");

  const calculator = await c.open(`/tools/${CALCULATOR}`, { key: c.key });
  await run(calculator.page, 0);
  await shot(calculator.page, "calculator");
  await calculator.page.setViewportSize({ width: 1280, height: 900 });
  await calculator.page.locator("h1").evaluate((h1) => h1.scrollIntoView());
  await shot(calculator.page, "overview", false);

  // The calculation sheet as printed: the print style sheet at the width of an A4 page.
  const titleBlock =
    "project=Riverside+Quay&job=J-2291&wall=RW3&by=A.+Bell&checked=C.+Dunn&date=2026-11-29&rev=P1";
  const sheet = await c.open(`/tools/${CALCULATOR}?${titleBlock}`, { key: c.key, width: A4_WIDTH });
  await run(sheet.page, 4);
  await sheet.page.emulateMedia({ media: "print" });
  await shot(sheet.page, "calculator-sheet");

  const phone = await c.open(`/tools/${CALCULATOR}`, { key: c.key, width: 390 });
  await run(phone.page, 1);
  await phone.page.setViewportSize({ width: 390, height: 844 });
  await phone.page.locator("#results-title").evaluate((heading) => heading.scrollIntoView());
  await shot(phone.page, "calculator-phone", false);

  const invalid = await c.open(`/tools/${CALCULATOR}`, { key: c.key });
  await invalid.page.getByLabel("Friction Angle (phi)").fill("60");
  await invalid.page.getByLabel("Wall Height (H)").fill("");
  await invalid.page.getByRole("button", { name: "Run", exact: true }).click();
  await invalid.page.locator("#problem:not([hidden])").waitFor();
  await shot(invalid.page, "calculator-error");

  const inspector = await c.open(`/tools/${INSPECTOR}`, { key: c.key });
  await run(inspector.page, 0);
  await shot(inspector.page, "inspector");

  // Stripe's example pasted as body and headers: correctly signed, but long expired.
  const parts = await c.open(`/tools/${INSPECTOR}`, { key: c.key });
  await parts.page.locator("button.example").nth(1).click();
  await parts.page.getByRole("radio", { name: "Body and headers" }).check();
  await parts.page.getByRole("button", { name: "Run", exact: true }).click();
  await parts.page.locator("#results:not([hidden])").waitFor();
  await shot(parts.page, "inspector-parts");

  const account = await c.open("/account", { key: c.key });
  await account.page.locator("#account:not([hidden])").waitFor();
  await shot(account.page, "account");

  const reference = await c.open("/docs");
  await reference.page.locator(".opblock").first().waitFor();
  await reference.page.locator(".opblock-summary-control").nth(1).click();
  await reference.page.locator(".responses-table").first().waitFor();
  await shot(reference.page, "reference", false);

  await weigh("Tools (`/`)", "/");
  await weigh("Calculator page", `/tools/${CALCULATOR}`, c.key);
  await weigh("Inspector page", `/tools/${INSPECTOR}`, c.key);
  await weigh("Account page", "/account", c.key);
} finally {
  await c.close();
}

console.log(`Console page weight, ${new Date().toISOString().slice(0, 16)} UTC, node ${process.version}`);
console.log("| page | files | bytes | gzipped |\n|---|---|---|---|");
console.log(weights.join("\n"));
