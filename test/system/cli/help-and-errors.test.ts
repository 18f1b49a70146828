/**
 * The CLI as an operator meets it: help at every level, the version, one-line mistakes with a
 * suggestion and exit code 2, a database looked for where the docs say and never created by a
 * `keys` or `tools` command, `migrate` saying what it applied, and a friendly word on old Node.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { KNOWN_VARIABLES } from "../../../src/config.ts";
import { BIN, lines, ROOT, run, toolrun } from "../run.ts";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("toolrun CLI", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers --help at every level, on stdout with exit code 0", async () => {
    for (const args of [
      ["--help"],
      ["help"],
      ["serve", "--help"],
      ["migrate", "--help"],
      ["migrate", "status", "--help"],
      ["keys", "--help"],
      ["keys", "create", "--help"],
      ["keys", "rotate", "--help"],
      ["keys", "update", "--help"],
      ["keys", "grant", "--help"],
      ["admin-keys", "--help"],
      ["admin-keys", "create", "--help"],
      ["tools", "--help"],
      ["tools", "set", "--help"],
      ["help", "keys"],
    ]) {
      const result = await toolrun(args, {}, dir);
      assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      const command = args.filter((a) => a !== "--help" && a !== "help").join(" ");
      assert.match(result.stdout, new RegExp(`^Usage: toolrun ${command}`), args.join(" "));
      assert.equal(result.stderr, "");
    }
    assert.match((await toolrun(["keys", "create", "--help"], {}, dir)).stdout, /--plan <plan>/);
    assert.match((await toolrun(["serve", "--help"], {}, dir)).stdout, /--no-migrate/);
    const top = (await toolrun(["--help"], {}, dir)).stdout;
    for (const name of KNOWN_VARIABLES)
      assert.match(top, new RegExp(`\\b${name}\\b`), `--help names ${name}`);
  });

  it("prints its version", async () => {
    for (const flag of ["--version", "-v"]) {
      const result = await toolrun([flag], {}, dir);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `${VERSION}\n`);
    }
  });

  it("says what is wrong in one line, with a suggestion, and exits 2", async () => {
    const cases: [string[], RegExp][] = [
      [["kyes", "list"], /^toolrun: unknown command 'kyes' \(Did you mean keys\?\) \(see toolrun --help\)$/],
      [
        ["keys", "lst"],
        /^toolrun: unknown command 'lst' \(Did you mean list\?\) \(see toolrun keys --help\)$/,
      ],
      [["keys", "list", "--jsn"], /^toolrun: unknown option '--jsn' \(Did you mean --json\?\)/],
      [
        ["keys", "create"],
        /^toolrun: required option '--plan <plan>' not specified \(see toolrun keys create --help\)$/,
      ],
      [
        ["keys", "create", "--plan", "free", "--credits", "ten"],
        /--credits <n>' argument 'ten' is invalid\. must be a whole number/,
      ],
      [["keys", "revoke"], /^toolrun: missing required argument 'id'/],
      [
        ["keys", "update", "key_x", "--metadata", "novalue"],
        /--metadata <name=value>' argument 'novalue' is invalid\. must be name=value/,
      ],
      [["admin-key", "create"], /^toolrun: unknown command 'admin-key' \(Did you mean admin-keys\?\)/],
      [
        ["tools", "set", "x", "--enabled", "yes"],
        /argument 'yes' is invalid\. Allowed choices are true, false/,
      ],
      [["serve", "--port", "80"], /^toolrun: unknown option '--port'/],
    ];
    for (const [args, message] of cases) {
      const result = await toolrun(args, {}, dir);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr.trim(), message);
    }
    const bare = await toolrun([], {}, dir);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^Usage: toolrun/);
  });

  it("outside the checkout, looks for ./data/toolrun.db there and refuses, naming TOOLRUN_DATABASE, creating nothing", async () => {
    const elsewhere = mkdtempSync(join(dir, "elsewhere-"));
    for (const args of [
      ["keys", "list"],
      ["keys", "create", "--plan", "free"],
      ["tools", "list"],
      ["migrate", "status"],
    ]) {
      const result = await toolrun(args, {}, elsewhere);
      assert.equal(result.code, 1, `${args.join(" ")}: ${result.stderr}`);
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(
        result.stderr,
        /^toolrun: no database at .*elsewhere-\w+\/data\/toolrun\.db \(TOOLRUN_DATABASE is unset/,
      );
      assert.match(result.stderr, /Set TOOLRUN_DATABASE to the file the server uses/);
    }
    assert.equal(existsSync(join(elsewhere, "data")), false, "no database was created");
    const named = await toolrun(
      ["keys", "list"],
      { TOOLRUN_DATABASE: join(elsewhere, "nope.db") },
      elsewhere,
    );
    assert.equal(named.code, 1);
    assert.match(named.stderr, /TOOLRUN_DATABASE=.*nope\.db/);
    assert.equal(existsSync(join(elsewhere, "nope.db")), false);
  });

  it("migrate says what it applied, then that nothing was left; migrate status tells pending from current", async () => {
    const env = { TOOLRUN_DATABASE: join(dir, "migrate.db") };
    const first = await toolrun(["migrate"], env, dir);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /^Applied migrations? [0-9, ]+ \(sqlite at .*migrate\.db\); the schema is up to date\.\n$/,
    );
    const again = await toolrun(["migrate"], env, dir);
    assert.match(again.stdout, /^Nothing to apply: the schema is up to date \(sqlite at /);
    const status = await toolrun(["migrate", "status"], env, dir);
    assert.equal(status.code, 0);
    assert.match(status.stdout, /^The schema is up to date/);
  });

  it("migrate status reports pending PostgreSQL migrations with exit code 1", {
    skip: process.env.TOOLRUN_TEST_DATABASE_URL ? false : "TOOLRUN_TEST_DATABASE_URL is not set",
  }, async () => {
    const schema = `t_status_${Date.now().toString(36)}`;
    const env = {
      TOOLRUN_DATABASE: process.env.TOOLRUN_TEST_DATABASE_URL ?? "",
      TOOLRUN_DATABASE_SCHEMA: schema,
    };
    const pending = await toolrun(["migrate", "status"], env, dir);
    assert.equal(pending.code, 1, pending.stderr);
    assert.match(pending.stdout, /^Migrations are pending \(postgres at .*\): run `toolrun migrate`\./);
    const applied = await toolrun(["migrate"], env, dir);
    assert.match(applied.stdout, /^Applied migrations? [0-9, ]+ \(postgres/);
    assert.equal((await toolrun(["migrate", "status"], env, dir)).code, 0);
    await run("psql", [env.TOOLRUN_DATABASE, "-c", `DROP SCHEMA ${schema} CASCADE`], {}).catch(
      () => undefined,
    );
  });

  it("on Node older than 24 without the pinned Node beside it, says what to do in one line", async () => {
    const systemNode = ["/usr/bin/node", "/bin/node"].find((p) => existsSync(p));
    if (systemNode === undefined) return;
    const version = (await run(systemNode, ["--version"], {})).stdout.trim();
    if (Number(version.slice(1).split(".")[0]) >= 24) return;
    // The launcher alone, as in a checkout where `npm ci` has not run yet.
    const bare = join(dir, "bare");
    mkdirSync(join(bare, "bin"), { recursive: true });
    copyFileSync(BIN, join(bare, "bin", "toolrun.js"));
    const result = await run(systemNode, [join(bare, "bin", "toolrun.js"), "--version"], {}, dir);
    assert.equal(result.code, 1);
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`^toolrun: needs Node\\.js 24 or later, and this is Node\\.js ${version.slice(1)}\\.`),
    );
    assert.doesNotMatch(result.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
    // With the pinned Node beside it, the launcher hands over.
    const handed = await run(systemNode, [BIN, "--version"], {}, dir);
    assert.equal(handed.code, 0, handed.stderr);
    assert.equal(handed.stdout, `${VERSION}\n`);
  });
});
