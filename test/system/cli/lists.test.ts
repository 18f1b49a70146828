// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * The CLI's lists as an operator reads them: aligned columns under their headers (whatever the
 * names hold), `tools list` giving what one call costs on every configured plan, and `--json`
 * the same compact JSON it always printed.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import stringWidth from "string-width";
import { migratedDatabase, runCli } from "../../helpers/process.ts";

/** Each cell's text and the display cell it starts at; cells are two or more spaces apart. */
function cells(line: string): { text: string; at: number }[] {
  return [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => ({
    text: m[0],
    at: stringWidth(line.slice(0, m.index)),
  }));
}

/** Where each header starts, and each row's cells by header. */
function parse(table: string): { headers: { text: string; at: number }[]; rows: Map<string, string>[] } {
  const [header = "", ...lines] = table.trimEnd().split("\n");
  const headers = cells(header);
  const rows = lines.map((line) => {
    const row = cells(line);
    assert.equal(row.length, headers.length, `one cell per column in ${JSON.stringify(line)}`);
    return new Map(row.map((cell, i) => [headers[i]?.text ?? "", cell.text]));
  });
  return { headers, rows };
}

describe("toolrun CLI lists", () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-lists-"));
    const config = join(dir, "toolrun.json");
    writeFileSync(
      config,
      JSON.stringify({
        plans: { team: { label: "Team", rpm: 1000, monthlyCredits: 1_000_000, minCredits: 3 } },
        tools: { "webhook-payload-inspector": { weight: 7 } },
      }),
    );
    env = { ...env, TOOLRUN_CONFIG: config };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keys list: every column starts under its header, a wide or hostile name included", async () => {
    for (const [plan, name] of [
      ["free", "日本の鍵"],
      ["builder", "ops\u001b[2J\nsecond line"],
      ["team", ""],
    ] as const)
      assert.equal((await runCli(["keys", "create", "--plan", plan, "--name", name], env)).code, 0);
    const listed = await runCli(["keys", "list"], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes("\t") && !listed.stdout.includes("\u001b"), listed.stdout);
    const lines = listed.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 4, "a header and one line per key");
    const { headers, rows } = parse(listed.stdout);
    assert.deepEqual(
      headers.map((h) => h.text),
      ["ID", "PREFIX", "PLAN", "ALLOWANCE", "STATUS", "NAME", "CREATED", "EXPIRES", "OLD SECRET UNTIL"],
    );
    for (const line of lines.slice(1)) {
      const starts = cells(line).map((c) => c.at);
      for (const column of ["ID", "PREFIX", "PLAN", "STATUS", "NAME", "CREATED", "EXPIRES"]) {
        const i = headers.findIndex((h) => h.text === column);
        assert.equal(starts[i], headers[i]?.at, `${column} in ${JSON.stringify(line)}`);
      }
    }
    assert.deepEqual(
      rows.map((r) => r.get("NAME")),
      ["日本の鍵", "ops\\u{1b}[2J\\u{a}second line", "-"],
    );
    assert.deepEqual(
      rows.map((r) => r.get("ALLOWANCE")),
      ["1000", "100000", "1000000"],
    );
  });

  it("tools list: the credits one call costs on every configured plan, the larger of weight and minimum", async () => {
    const listed = await runCli(["tools", "list"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const { headers, rows } = parse(listed.stdout);
    assert.deepEqual(
      headers.map((h) => h.text),
      [
        "SLUG",
        "VERSION",
        "ENABLED",
        "API",
        "MAX BODY",
        "CREDITS (free)",
        "CREDITS (builder)",
        "CREDITS (team)",
        "FROM",
      ],
    );
    const bySlug = new Map(rows.map((r) => [r.get("SLUG"), r]));
    // The calculator weighs 1: the plan's minimum decides (2, 1, 3).
    const calculator = bySlug.get("retaining-wall-pressure-calculator");
    assert.deepEqual(
      ["CREDITS (free)", "CREDITS (builder)", "CREDITS (team)"].map((h) => calculator?.get(h)),
      ["2", "1", "3"],
    );
    assert.equal(calculator?.get("MAX BODY"), "16 KiB");
    // The inspector weighs 7 here: above every minimum.
    const inspector = bySlug.get("webhook-payload-inspector");
    assert.deepEqual(
      ["CREDITS (free)", "CREDITS (builder)", "CREDITS (team)"].map((h) => inspector?.get(h)),
      ["7", "7", "7"],
    );
    assert.equal(inspector?.get("ENABLED"), "true");
    assert.equal(inspector?.get("FROM"), "built-in");
  });

  it("tools list needs no secret value: the upstream's credentials need not be in the shell", async () => {
    const config = join(dir, "with-secrets.json");
    const ticket = {
      slug: "create-ticket",
      name: "Create a ticket",
      description: "Opens a ticket.",
      version: "1.0.0",
      weight: 5,
      inputSchema: { type: "object", properties: { title: { type: "string" } } },
      url: "https://helpdesk.example/tickets",
      method: "POST",
      headers: { Authorization: "Bearer ${TICKETS_TOKEN}" },
    };
    writeFileSync(config, JSON.stringify({ httpTools: [ticket] }));
    const { TICKETS_TOKEN: _, ...shell } = env;
    const listed = await runCli(["tools", "list", "--json"], { ...shell, TOOLRUN_CONFIG: config });
    assert.equal(listed.code, 0, listed.stderr);
    const tools = JSON.parse(listed.stdout) as { slug: string; from: string }[];
    assert.deepEqual(tools.at(-1), {
      slug: "create-ticket",
      tool_version: "1.0.0",
      weight: 5,
      max_body_bytes: 65536,
      enabled: true,
      api: true,
      from: `httpTools[0] in ${config}`,
    });
    // A reference that cannot be one still stops it, naming the entry.
    writeFileSync(
      config,
      JSON.stringify({ httpTools: [{ ...ticket, headers: { Authorization: "Bearer ${TICKETS" } }] }),
    );
    const broken = await runCli(["tools", "list"], { ...shell, TOOLRUN_CONFIG: config });
    assert.equal(broken.code, 2);
    assert.match(
      broken.stderr,
      /httpTools\[0\] \("create-ticket"\): headers\.Authorization has a \$\{ without its closing \}/,
    );
  });

  it("--json prints the same compact JSON as before the tables, with where each tool came from", async () => {
    const tools = await runCli(["tools", "list", "--json"], env);
    assert.equal(
      tools.stdout,
      `${JSON.stringify([
        {
          slug: "retaining-wall-pressure-calculator",
          tool_version: "1.2.0",
          weight: 1,
          max_body_bytes: 16384,
          enabled: true,
          api: true,
          from: "built-in",
        },
        {
          slug: "webhook-payload-inspector",
          tool_version: "1.2.0",
          weight: 7,
          max_body_bytes: 1048576,
          enabled: true,
          api: true,
          from: "built-in",
        },
      ])}\n`,
    );
    const keys = await runCli(["keys", "list", "--json"], env);
    const parsed = JSON.parse(keys.stdout) as Record<string, unknown>[];
    assert.equal(keys.stdout, `${JSON.stringify(parsed)}\n`, "one compact line");
    for (const key of parsed)
      assert.deepEqual(Object.keys(key), [
        "id",
        "account_id",
        "prefix",
        "name",
        "plan",
        "status",
        "own_monthly_allowance",
        "monthly_allowance",
        "metadata",
        "expires_at",
        "created_at",
        "revoked_at",
        "previous_prefix",
        "previous_secret_expires_at",
        "tools",
        "access",
      ]);
  });
});
