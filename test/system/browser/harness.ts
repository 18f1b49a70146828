/**
 * Real Chromium (Debian's package) driven by playwright-core against a real `toolrun serve`: the
 * browser tests and the screenshot script share this. Never downloads a browser.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { AnyToolDefinition } from "../../../src/tools/tool.ts";
import { createTestApp } from "../../helpers/app.ts";
import { runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { freePort } from "../../oauth/helpers.ts";

export const CHROMIUM = process.env.TOOLRUN_CHROMIUM ?? "/usr/bin/chromium";

/** Flags from the project's services notes: no background traffic to hosts that are unreachable. */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why the browser tests cannot run here, or null. In CI a missing browser fails instead. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) or set TOOLRUN_CHROMIUM`;
  if (process.env.CI) throw new Error(reason);
  return reason;
}

/** A service with a browser pointed at it. */
export interface Site {
  readonly origin: string;
  /** A key on plan free. */
  readonly key: string;
  readonly browser: BrowserContext;
  /** A new tab that records what the checks below look at. */
  open(path: string, options?: { width?: number; key?: string }): Promise<WatchedPage>;
  api(path: string, key?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface Console extends Site {
  readonly server: ServerProcess;
  /** A new key on this plan, made with `toolrun keys create` and any more of its options. */
  createKey(plan: string, options?: readonly string[]): Promise<string>;
}

export interface WatchedPage {
  readonly page: Page;
  /** Every request the page made to another origin. */
  readonly foreignRequests: string[];
  /** Console errors and uncaught exceptions. */
  readonly errors: string[];
}

/**
 * Starts the service on a fresh SQLite file with this configuration file (and any more of the
 * environment, such as a fixed PORT with its TOOLRUN_PUBLIC_URL), and a fresh browser. Without a
 * PORT it takes a free one and makes it the public URL's, so the links the pages carry (the
 * reference's, the error pages') lead to the server, not to port 0.
 */
export async function startConsole(config: object = {}, more: Record<string, string> = {}): Promise<Console> {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-console-"));
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify(config));
  const env = { TOOLRUN_DATABASE: join(dir, "toolrun.db"), TOOLRUN_CONFIG: configPath };
  const port = more.PORT ?? String(await freePort());
  const server = await startServerProcess({
    ...env,
    PORT: port,
    TOOLRUN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...more,
  });
  const key = /\n\s+(\S+_\S{32})\n/.exec(server.output())?.[1];
  if (!key) throw new Error(`no bootstrap key in:\n${server.output()}`);
  const site = await browse(new URL(server.url).origin, key, dir, async () => {
    await server.stop();
  });
  return {
    ...site,
    server,
    async createKey(plan, options = []) {
      const created = await runCli(
        ["keys", "create", "--plan", plan, "--name", plan, ...options, "--json"],
        env,
      );
      return (JSON.parse(created.stdout) as { key: string }).key;
    },
  };
}

/**
 * The application built in this process with these tools (ones `toolrun serve` does not have, such
 * as test fixtures), listening on a free loopback port, and a fresh browser.
 */
export async function startToolsSite(tools: readonly AnyToolDefinition[]): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-site-"));
  const closers: (() => Promise<void>)[] = [];
  const t = await createTestApp({ tools }, { after: (close) => void closers.push(close) });
  const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
  return browse(new URL(address).origin, await t.key(), dir, async () => {
    for (const close of closers) await close();
  });
}

/** A fresh browser pointed at a service the test started itself (its `close` leaves the service running). */
export async function browseService(origin: string, key: string): Promise<Site> {
  return browse(origin, key, mkdtempSync(join(tmpdir(), "toolrun-browse-")), async () => {});
}

async function browse(origin: string, key: string, dir: string, stop: () => Promise<void>): Promise<Site> {
  const browser = await chromium.launchPersistentContext(join(dir, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  return {
    origin,
    key,
    browser,
    async open(path, options = {}) {
      const page = await browser.newPage();
      await page.setViewportSize({ width: options.width ?? 1280, height: 900 });
      const foreignRequests: string[] = [];
      const errors: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).origin !== origin) foreignRequests.push(request.url());
      });
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      if (options.key) {
        await page.goto(`${origin}/`);
        await page.evaluate((k) => sessionStorage.setItem("toolrun.apiKey", k), options.key);
      }
      await page.goto(`${origin}${path}`);
      return { page, foreignRequests, errors };
    },
    async api(path, apiKey = key, body) {
      const response = await fetch(`${origin}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async close() {
      await browser.close();
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const AXE_SOURCE = createRequire(import.meta.url)("axe-core").source as string;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The source is evaluated
 * through the DevTools protocol, which the page's CSP does not govern (an injected <script> would
 * be refused, as it should be).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * What every page must be, whatever it shows: no request to another origin, no console error, no
 * serious or critical axe-core violation, no sideways scrolling.
 */
export async function assertCleanPage(w: WatchedPage): Promise<void> {
  assert.deepEqual(w.foreignRequests, [], "requests to another origin");
  assert.deepEqual(w.errors, [], "console errors");
  assert.deepEqual(await seriousViolations(w.page), [], "serious or critical axe-core violations");
  assert.equal(await scrollsSideways(w.page), false, "the page scrolls sideways");
}

/** True when the page is wider than its window (it scrolls sideways). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(
    "document.documentElement.scrollWidth > document.documentElement.clientWidth",
  );
}
