/**
 * Jobs on a tool's page, in real Chromium: a slow tool served in-process (each run waits for the
 * test) run as a job shows the job running, then its result drawn as a synchronous result is; a
 * `required` tool always runs as one, and `Cancel the job` ends it canceled with nothing charged;
 * a job that fails shows its problem; an `optional` tool without `Run as a job` answers
 * synchronously, with no job, and a computing tool's page (no job panel at all) runs as ever.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Locator } from "playwright-core";
import type { AnyToolDefinition } from "../../../src/tools/tool.ts";
import { echoTool } from "../../helpers/fixture-tools.ts";
import { assertCleanPage, browserMissing, type Site, startToolsSite } from "./harness.ts";

interface HeldRun {
  open(): void;
  fail(message: string): void;
  readonly aborted: Promise<unknown>;
}

/** A tool each run of which waits until the test opens it, and hears its signal. */
function slowTool(slug: string, name: string, jobs: "optional" | "required") {
  const runs: HeldRun[] = [];
  const definition = {
    slug,
    name,
    description: "Waits for the test, as a slow upstream would.",
    keywords: [],
    version: "1.0.0",
    defaults: { weight: 3, maxBodyBytes: 1024 },
    inputSchema: {
      type: "object",
      properties: { pages: { type: "integer", title: "Pages", minimum: 1, maximum: 100 } },
    },
    outputSchema: {
      type: "object",
      properties: { pages: { type: "integer", title: "Pages converted" }, format: { type: "string" } },
    },
    examples: [],
    effects: "external",
    jobs,
    timeoutMs: 600_000,
    run(input: { pages?: number }, context: { signal: AbortSignal }) {
      return new Promise((resolve, reject) => {
        const aborted = new Promise((heard) =>
          context.signal.addEventListener("abort", heard, { once: true }),
        );
        runs.push({
          open: () => resolve({ pages: input.pages ?? 1, format: "pdf" }),
          fail: (message) => reject(new Error(message)),
          aborted,
        });
      });
    },
  } as unknown as AnyToolDefinition;
  return { definition, runs };
}

/** Waits until the tool has started `count` runs. */
async function runsStarted(runs: readonly HeldRun[], count: number): Promise<void> {
  while (runs.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A table's rows as text, its header row first. */
function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .getByRole("row")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent ?? "")),
    );
}

const missing = browserMissing();

describe("jobs on a tool's page, in Chromium", { skip: missing ?? false }, () => {
  const optional = slowTool("slow-convert", "Slow Convert", "optional");
  const required = slowTool("slow-report", "Slow Report", "required");
  let site: Site;
  before(async () => {
    site = await startToolsSite([optional.definition, required.definition, echoTool]);
  });
  after(async () => {
    for (const run of [...optional.runs, ...required.runs]) run.open();
    await site?.close();
  });

  const creditsUsed = async () => (await site.api("/v1/me/usage")).body.credits_used as number;

  it("runs an optional tool as a job when asked: running, then its result as a synchronous run shows it", async () => {
    const w = await site.open("/tools/slow-convert", { key: site.key });
    const page = w.page;
    const runButton = page.getByRole("button", { name: "Run", exact: true });
    await page.getByLabel("Pages").fill("12");
    await page.getByRole("checkbox", { name: "Run as a job" }).check();
    await runButton.click();

    const job = page.getByRole("region", { name: "Job" });
    await job.getByText(/^Running since /).waitFor();
    await page.getByRole("status").filter({ hasText: "Job running…" }).waitFor();
    assert.equal(await job.getByRole("button", { name: "Cancel the job" }).isVisible(), true);
    assert.equal(await runButton.isDisabled(), true, "one run at a time");
    assert.equal(await page.getByRole("region", { name: "Result" }).isVisible(), false);
    const id = (await page.locator("#job-id").textContent()) ?? "";
    assert.match(id, /^job_[0-9a-f]{32}$/);
    assert.equal((await site.api(`/v1/jobs/${id}`)).body.status, "running");
    // The call as curl asks for the job, as the page did.
    assert.match((await page.locator("#curl-text").textContent()) ?? "", /-H 'Prefer: respond-async'/);
    await assertCleanPage(w);

    await runsStarted(optional.runs, 1);
    optional.runs[0]?.open();
    const results = page.getByRole("region", { name: "Result" });
    await results.waitFor();
    await job.getByText(/^Succeeded at /).waitFor();
    assert.equal(await job.getByRole("button", { name: "Cancel the job" }).isVisible(), false);
    assert.equal(await runButton.isEnabled(), true);
    const read = (await site.api(`/v1/jobs/${id}`)).body;
    assert.equal(read.status, "succeeded");
    const envelope = read.result as { outputs: Record<string, unknown>; credits_used: number };
    assert.deepEqual(envelope.outputs, { pages: 12, format: "pdf" });
    assert.deepEqual(await rowsOf(results.getByRole("table", { name: "Properties" })), [
      ["Property", "Value"],
      ["Pages converted", "12"],
      ["Format", "pdf"],
    ]);
    assert.match(
      (await page.getByRole("status").textContent()) ?? "",
      new RegExp(`^Done: ${envelope.credits_used} credits used`),
    );
    await assertCleanPage(w);
  });

  it("always runs a required tool as a job, and Cancel ends it canceled with nothing charged (on a phone)", async () => {
    const before = await creditsUsed();
    const w = await site.open("/tools/slow-report", { key: site.key, width: 390 });
    const page = w.page;
    assert.equal(await page.getByRole("checkbox", { name: "Run as a job" }).count(), 0);
    await page.getByText("This tool runs as a job").waitFor();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const job = page.getByRole("region", { name: "Job" });
    await job.getByText(/^Running since /).waitFor();
    await runsStarted(required.runs, 1);
    assert.ok((await creditsUsed()) > before, "its credits are held while it runs");
    await assertCleanPage(w);

    await job.getByRole("button", { name: "Cancel the job" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "The job was canceled: nothing was charged." })
      .waitFor();
    await job.getByText(/^Canceled at .*: nothing was charged$/).waitFor();
    await required.runs[0]?.aborted;
    const id = (await page.locator("#job-id").textContent()) ?? "";
    assert.equal((await site.api(`/v1/jobs/${id}`)).body.status, "canceled");
    assert.equal(await creditsUsed(), before);
    assert.equal(await page.getByRole("region", { name: "Result" }).isVisible(), false);
    // The focus, on the Cancel button that is gone, is back on Run.
    assert.equal(await page.evaluate<string | undefined>("document.activeElement?.id"), "run");
    await assertCleanPage(w);
  });

  it("shows the problem of a job that failed, as a failed synchronous run shows it, and charges nothing", async () => {
    const before = await creditsUsed();
    const w = await site.open("/tools/slow-report", { key: site.key });
    const page = w.page;
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const job = page.getByRole("region", { name: "Job" });
    await job.getByText(/^Running since /).waitFor();
    await runsStarted(required.runs, 2);
    required.runs[1]?.fail("the report service broke");
    await job.getByText(/^Failed at /).waitFor();
    const problem = page.locator("#problem");
    await problem.waitFor();
    const id = (await page.locator("#job-id").textContent()) ?? "";
    const read = (await site.api(`/v1/jobs/${id}`)).body;
    const expected = read.problem as { code: string; title: string };
    assert.equal(expected.code, "processing_error");
    assert.equal(await problem.locator("code.code").textContent(), expected.code);
    assert.equal(await problem.locator(".problem-title").textContent(), expected.title);
    assert.equal(await page.getByRole("region", { name: "Result" }).isVisible(), false);
    assert.equal(await creditsUsed(), before);
    await assertCleanPage(w);
  });

  it("runs a tool that never runs as a job as ever, with no box and no job", async () => {
    const w = await site.open("/tools/echo", { key: site.key });
    const page = w.page;
    assert.equal(await page.getByRole("checkbox", { name: "Run as a job" }).count(), 0);
    await page.getByLabel("Value").fill("21");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByRole("region", { name: "Result" }).waitFor();
    assert.equal(await page.locator("#job").count(), 0);
    await assertCleanPage(w);
  });

  it("answers an optional tool synchronously when the box is not ticked", async () => {
    const w = await site.open("/tools/slow-convert", { key: site.key });
    const page = w.page;
    await page.getByLabel("Pages").fill("3");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await runsStarted(optional.runs, 2);
    optional.runs[1]?.open();
    await page.getByRole("region", { name: "Result" }).waitFor();
    assert.equal(await page.getByRole("region", { name: "Job" }).count(), 0, "no job shown");
    assert.doesNotMatch((await page.locator("#curl-text").textContent()) ?? "", /Prefer/);
    await assertCleanPage(w);
  });
});
