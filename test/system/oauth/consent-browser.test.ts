/**
 * The consent page in Chromium, against a served process, as a person uses it: an MCP client
 * (oauth4webapi here) sends the browser to sign in; the person types the key into the field
 * labelled `API key` and presses `Approve` or `Deny`, and the browser lands on the client's own
 * page (another origin) with a code or `access_denied`. The page passes axe, fits a phone's
 * width, runs no script, and cannot be framed by another site.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { freePort } from "../../oauth/helpers.ts";
import { IndependentClient } from "../../oauth/independent-client.ts";
import {
  browserMissing,
  type Console,
  scrollsSideways,
  seriousViolations,
  startConsole,
} from "../browser/harness.ts";

const skip = browserMissing();

/** The client's own web page: where the browser comes back to, and a page that tries to frame the consent page. */
async function startClientSite(): Promise<{
  origin: string;
  server: Server;
  framing: (url: string) => void;
}> {
  let framed = "";
  const server = createServer((request, response) => {
    if (request.url?.startsWith("/frame")) {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>framer</title><iframe src="${framed}" width="600" height="400"></iframe>`,
        );
      return;
    }
    response
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>back at the client</title><p>back</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    server,
    framing: (url) => {
      framed = url;
    },
  };
}

describe("the consent page in Chromium", { skip: skip ?? false }, () => {
  let site: Awaited<ReturnType<typeof startClientSite>>;
  let toolrun: Console;
  let client: IndependentClient;
  let base: string;

  before(async () => {
    site = await startClientSite();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    toolrun = await startConsole({}, { PORT: String(port), TOOLRUN_PUBLIC_URL: base });
    client = new IndependentClient(base, `${base}/mcp`);
    await client.discover();
  });

  after(async () => {
    await toolrun.close();
    await new Promise<void>((resolve) => site.server.close(() => resolve()));
  });

  /** A fresh client's authorization URL, coming back to the client site. */
  async function signInUrl() {
    const redirect = `${site.origin}/callback`;
    const registered = await client.register({
      client_name: "Browser test client",
      redirect_uris: [redirect],
    });
    return (await client.authorizationUrl(registered, { redirect_uri: redirect })).url;
  }

  async function consentPage(options: { width?: number } = {}): Promise<Page> {
    const watched = await toolrun.open("/healthz", options);
    await watched.page.goto((await signInUrl()).href);
    await watched.page.getByLabel("API key").waitFor();
    return watched.page;
  }

  it("approves: the key typed into 'API key', 'Approve' pressed, the browser lands on the client with a code", async () => {
    const page = await consentPage();
    assert.equal(
      await page.getByRole("heading", { level: 1 }).innerText(),
      "Allow Browser test client to use toolrun?",
    );
    assert.match(await page.locator(".redirect-host").innerText(), /^127\.0\.0\.1:\d+$/);
    await page.getByLabel("API key").fill(toolrun.key);
    await Promise.all([
      page.waitForURL(`${site.origin}/callback?**`),
      page.getByRole("button", { name: "Approve" }).click(),
    ]);
    const landed = new URL(page.url());
    assert.ok(landed.searchParams.get("code"), landed.href);
    assert.equal(landed.searchParams.get("iss"), base);
    await page.close();
  });

  it("denies: 'Deny' pressed, the browser lands on the client with access_denied", async () => {
    const page = await consentPage();
    await Promise.all([
      page.waitForURL(`${site.origin}/callback?**`),
      page.getByRole("button", { name: "Deny" }).click(),
    ]);
    assert.equal(new URL(page.url()).searchParams.get("error"), "access_denied");
    await page.close();
  });

  it("shows a key that cannot sign in beside the field, without the key", async () => {
    const page = await consentPage();
    const wrong = `tr_live_${"B".repeat(32)}`;
    await page.getByLabel("API key").fill(wrong);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("alert").waitFor();
    assert.match(await page.getByRole("alert").innerText(), /This API key cannot sign in/);
    assert.ok(!(await page.content()).includes(wrong));
    assert.equal(await page.getByLabel("API key").getAttribute("aria-invalid"), "true");
    await page.close();
  });

  it("passes axe and fits a phone's width", async () => {
    for (const width of [1280, 375]) {
      const page = await consentPage({ width });
      assert.deepEqual(await seriousViolations(page), [], `axe at ${width}px`);
      assert.equal(await scrollsSideways(page), false, `no sideways scroll at ${width}px`);
      await page.close();
    }
  });

  it("cannot be framed by another site", async () => {
    const url = (await signInUrl()).href;
    site.framing(url);
    const watched = await toolrun.open("/healthz");
    const refused = new Promise<void>((resolve) => {
      watched.page.on("console", (message) => {
        if (/frame-ancestors|Refused to (display|frame)/i.test(message.text())) resolve();
      });
    });
    await watched.page.goto(`${site.origin}/frame`);
    await refused;
    const frame = watched.page.frames().find((f) => f !== watched.page.mainFrame());
    assert.ok(frame);
    assert.equal(
      await frame.locator("#api-key").count(),
      0,
      "the consent form did not render inside the frame",
    );
    await watched.page.close();
  });
});
