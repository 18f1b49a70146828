import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig, unknownVariableWarnings, VARIABLES } from "../../src/config.ts";

describe("loadConfig", () => {
  it("gives the documented defaults", () => {
    const config = loadConfig({});
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.port, 8080);
    assert.deepEqual(config.database, { kind: "sqlite", path: "./data/toolrun.db" });
    assert.equal(config.redisUrl, null);
    assert.equal(config.publicUrl, "http://127.0.0.1:8080");
    assert.equal(config.settings.docsUrl, "http://127.0.0.1:8080/docs");
    assert.equal(config.settings.keyPrefix, "tr_live");
    assert.equal(config.settings.metering, true);
    assert.equal(config.logLevel, "info");
    assert.deepEqual(config.settings.allowedOrigins, ["http://127.0.0.1:8080"]);
    assert.deepEqual(config.settings.plans.free, {
      id: "free",
      label: "Free member",
      rpm: 60,
      monthlyCredits: 1000,
      minCredits: 2,
      maxConcurrentJobs: 1,
    });
    assert.deepEqual(config.settings.plans.builder, {
      id: "builder",
      label: "Builder",
      rpm: 300,
      monthlyCredits: 100_000,
      minCredits: 1,
      maxConcurrentJobs: 5,
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      HOST: "0.0.0.0",
      PORT: "9000",
      TOOLRUN_DATABASE: "postgres://u@db:5432/toolrun",
      TOOLRUN_DATABASE_POOL_SIZE: "20",
      TOOLRUN_REDIS_URL: "redis://cache:6379",
      TOOLRUN_METERING: "off",
      TOOLRUN_PUBLIC_URL: "https://api.example.com/",
      TOOLRUN_KEY_PREFIX: "acme_live",
      LOG_LEVEL: "debug",
      TOOLRUN_DATABASE_SCHEMA: "tenant_a",
      TOOLRUN_REDIS_PREFIX: "a:",
    });
    assert.deepEqual(config.database, {
      kind: "postgres",
      url: "postgres://u@db:5432/toolrun",
      poolSize: 20,
      schema: "tenant_a",
    });
    assert.equal(config.redisUrl, "redis://cache:6379");
    assert.equal(config.redisPrefix, "a:");
    assert.equal(config.settings.metering, false);
    assert.equal(config.publicUrl, "https://api.example.com");
    assert.equal(config.settings.docsUrl, "https://api.example.com/docs");
    assert.equal(config.settings.keyPrefix, "acme_live");
    assert.equal(config.port, 9000);
    assert.deepEqual(
      loadConfig({ TOOLRUN_ALLOWED_ORIGINS: "https://a.example, http://localhost:3000" }).settings
        .allowedOrigins,
      ["http://127.0.0.1:8080", "https://a.example", "http://localhost:3000"],
    );
    assert.throws(
      () => loadConfig({ TOOLRUN_ALLOWED_ORIGINS: "https://a.example/path" }),
      /TOOLRUN_ALLOWED_ORIGINS/,
    );
  });

  it("names every bad variable at once", () => {
    try {
      loadConfig({
        PORT: "eighty",
        TOOLRUN_DATABASE: "mysql://x",
        TOOLRUN_REDIS_URL: "localhost:6379",
        TOOLRUN_METERING: "sometimes",
        TOOLRUN_PUBLIC_URL: "ftp://x",
        TOOLRUN_KEY_PREFIX: "bad prefix!",
        LOG_LEVEL: "loud",
      });
      assert.fail("expected a ConfigError");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const names = [
        "PORT",
        "TOOLRUN_DATABASE",
        "TOOLRUN_REDIS_URL",
        "TOOLRUN_METERING",
        "TOOLRUN_PUBLIC_URL",
        "TOOLRUN_KEY_PREFIX",
        "LOG_LEVEL",
      ];
      assert.equal(error.problems.length, names.length, error.message);
      for (const name of names)
        assert.ok(
          error.problems.some((p) => p.startsWith(name)),
          `${name} missing from ${error.message}`,
        );
    }
  });

  it("applies the configuration file and rejects its mistakes by name", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-config-"));
    try {
      const good = join(dir, "good.json");
      writeFileSync(
        good,
        JSON.stringify({
          plans: {
            free: { rpm: 10 },
            team: { rpm: 600, monthlyCredits: 500000, minCredits: 1, label: "Team" },
          },
          tools: { echo: { weight: 7, enabled: false, freeTierMonthlyCalls: 3 } },
        }),
      );
      const config = loadConfig({ TOOLRUN_CONFIG: good });
      assert.deepEqual(config.settings.plans.free, {
        id: "free",
        label: "Free member",
        rpm: 10,
        monthlyCredits: 1000,
        minCredits: 2,
        maxConcurrentJobs: 1,
      });
      assert.equal(config.settings.plans.team?.monthlyCredits, 500000);
      // A new plan that does not say runs one job at once.
      assert.equal(config.settings.plans.team?.maxConcurrentJobs, 1);
      assert.deepEqual(config.settings.tools.echo, { weight: 7, enabled: false, freeTierMonthlyCalls: 3 });

      const bad = join(dir, "bad.json");
      writeFileSync(
        bad,
        JSON.stringify({
          plans: { free: { rpm: -1 }, gold: { rpm: 5 } },
          tools: { nope: {}, echo: { weight: "x", api: 1 } },
          extra: 1,
        }),
      );
      assert.throws(
        () => loadConfig({ TOOLRUN_CONFIG: bad }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          const text = error.problems.join("\n");
          for (const part of [
            'unknown member "extra"',
            "plans.free.rpm",
            "plans.gold",
            "tools.echo.weight",
            "tools.echo.api",
          ]) {
            assert.ok(text.includes(part), `${part} missing from:\n${text}`);
          }
          return true;
        },
      );
      assert.throws(
        () => loadConfig({ TOOLRUN_CONFIG: join(dir, "missing.json") }),
        /TOOLRUN_CONFIG: cannot read/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loadConfig: credit alerts", () => {
  const withFile = (content: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-config-"));
    const path = join(dir, "alerts.json");
    writeFileSync(path, JSON.stringify(content));
    try {
      return loadConfig({ TOOLRUN_CONFIG: path });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("alerts at 80 % and 100 % used by default, and takes the file's thresholds, sorted, a member left out kept", () => {
    assert.deepEqual(loadConfig({}).settings.alerts, { usedPercent: [80, 100], remainingBelow: [] });
    assert.deepEqual(withFile({ alerts: { remainingBelow: [500, 50, 500] } }).settings.alerts, {
      usedPercent: [80, 100],
      remainingBelow: [50, 500],
    });
    assert.deepEqual(withFile({ alerts: { usedPercent: [] } }).settings.alerts.usedPercent, []);
  });

  it("refuses bad thresholds naming the field", () => {
    for (const [alerts, field] of [
      [{ usedPercent: [0] }, "alerts.usedPercent"],
      [{ usedPercent: [120] }, "alerts.usedPercent"],
      [{ remainingBelow: [1.5] }, "alerts.remainingBelow"],
      [{ remainingBelow: "100" }, "alerts.remainingBelow"],
      [{ used: [80] }, 'alerts: unknown member "used"'],
      [[80], "alerts must be an object"],
    ] as const) {
      assert.throws(
        () => withFile({ alerts }),
        (error: unknown) => error instanceof ConfigError && error.problems.some((p) => p.includes(field)),
        JSON.stringify(alerts),
      );
    }
  });
});

describe("loadConfig: where the operator's tools come from", () => {
  it("passes TOOLRUN_TOOLS, httpTools and each tool's secrets to the loader, which checks them with their tools", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-config-"));
    try {
      const path = join(dir, "tools.json");
      const httpTools = [{ slug: "lookup", anything: "the loader checks it" }];
      writeFileSync(
        path,
        JSON.stringify({
          httpTools,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own syntax
          tools: { "unit-converter": { weight: 2, secrets: { apiKey: "${RATES_KEY}" } }, "any-slug": {} },
        }),
      );
      const env = { TOOLRUN_CONFIG: path, TOOLRUN_TOOLS: "examples/tools" };
      const { toolSources, settings } = loadConfig(env);
      assert.equal(toolSources.modules, "examples/tools");
      assert.deepEqual(toolSources.httpTools, { declarations: httpTools, configPath: path });
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own syntax
      assert.deepEqual(toolSources.secrets, { "unit-converter": { apiKey: "${RATES_KEY}" } });
      assert.deepEqual(toolSources.configured, ["unit-converter", "any-slug"]);
      assert.equal(toolSources.env, env);
      assert.deepEqual(settings.tools["unit-converter"], { weight: 2 });
      assert.deepEqual(loadConfig({}).toolSources.httpTools, undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("configuration mistakes", () => {
  const problemsOf = (env: Record<string, string>): readonly string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
  };

  it("names HOST, not TOOLRUN_PUBLIC_URL, for a host that is no address or name", () => {
    assert.deepEqual(problemsOf({ HOST: "http://example.com" }), [
      'HOST must be an IP address or a host name such as 0.0.0.0 or localhost, got "http://example.com"',
    ]);
    assert.deepEqual(problemsOf({ HOST: "::1" }), []);
    assert.deepEqual(problemsOf({ HOST: "toolrun.internal" }), []);
  });

  it("refuses a postgres:// URL without a host, and a short metrics token, naming each", () => {
    assert.deepEqual(problemsOf({ TOOLRUN_DATABASE: "postgres://" }), [
      "TOOLRUN_DATABASE is a postgres:// URL without a host, like postgres://user@db.example:5432/toolrun",
    ]);
    assert.deepEqual(problemsOf({ TOOLRUN_METRICS_TOKEN: "short" }), [
      "TOOLRUN_METRICS_TOKEN must be at least 16 printable characters without spaces",
    ]);
    assert.deepEqual(problemsOf({ TOOLRUN_SHUTDOWN_TIMEOUT_MS: "5s" }), [
      'TOOLRUN_SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000 (milliseconds), got "5s"',
    ]);
  });

  it("reads the admin key prefix, refusing a malformed one or one equal to the customer prefix", () => {
    assert.equal(loadConfig({}).settings.adminKeyPrefix, "tr_admin");
    assert.equal(
      loadConfig({ TOOLRUN_ADMIN_KEY_PREFIX: "acme_admin" }).settings.adminKeyPrefix,
      "acme_admin",
    );
    assert.deepEqual(problemsOf({ TOOLRUN_ADMIN_KEY_PREFIX: "admin key" }), [
      'TOOLRUN_ADMIN_KEY_PREFIX must be letters and digits, optionally joined by single underscores (at most 32 characters), got "admin key"',
    ]);
    assert.deepEqual(problemsOf({ TOOLRUN_ADMIN_KEY_PREFIX: "tr_live" }), [
      'TOOLRUN_ADMIN_KEY_PREFIX must differ from TOOLRUN_KEY_PREFIX, so an admin key never passes for a customer key; both are "tr_live"',
    ]);
  });

  it("reads the metrics token and the shutdown bound", () => {
    const config = loadConfig({
      TOOLRUN_METRICS_TOKEN: "0123456789abcdef",
      TOOLRUN_SHUTDOWN_TIMEOUT_MS: "2500",
    });
    assert.equal(config.metricsToken, "0123456789abcdef");
    assert.equal(config.shutdownTimeoutMs, 2500);
    assert.equal(loadConfig({}).shutdownTimeoutMs, 10_000);
    assert.equal(loadConfig({}).metricsToken, null);
  });

  it("reads how long idempotency keys are kept and when a pending call is abandoned", () => {
    const defaults = loadConfig({});
    assert.equal(defaults.settings.idempotencyTtlS, 86_400);
    assert.equal(defaults.callAbandonS, 120);
    const config = loadConfig({ TOOLRUN_IDEMPOTENCY_TTL_S: "3600", TOOLRUN_CALL_ABANDON_S: "30" });
    assert.equal(config.settings.idempotencyTtlS, 3600);
    assert.equal(config.callAbandonS, 30);
    assert.deepEqual(problemsOf({ TOOLRUN_IDEMPOTENCY_TTL_S: "0", TOOLRUN_CALL_ABANDON_S: "2m" }), [
      'TOOLRUN_IDEMPOTENCY_TTL_S must be whole seconds from 1 to 31536000, got "0"',
      'TOOLRUN_CALL_ABANDON_S must be whole seconds from 1 to 86400, got "2m"',
    ]);
  });

  it("reads what may wait for the worker and the admin API's rate limit, naming bad values", () => {
    const defaults = loadConfig({});
    assert.deepEqual(defaults.compute, { perOwner: 2, queuedTasks: 32, queuedBytes: 32 * 1024 * 1024 });
    assert.equal(defaults.settings.adminRpm, 600);
    const config = loadConfig({
      TOOLRUN_COMPUTE_PER_KEY: "4",
      TOOLRUN_COMPUTE_QUEUE: "0",
      TOOLRUN_COMPUTE_QUEUE_BYTES: "1048576",
      TOOLRUN_ADMIN_RPM: "30",
    });
    assert.deepEqual(config.compute, { perOwner: 4, queuedTasks: 0, queuedBytes: 1_048_576 });
    assert.equal(config.settings.adminRpm, 30);
    assert.deepEqual(
      problemsOf({ TOOLRUN_COMPUTE_PER_KEY: "0", TOOLRUN_COMPUTE_QUEUE: "lots", TOOLRUN_ADMIN_RPM: "-1" }),
      [
        'TOOLRUN_COMPUTE_PER_KEY must be an integer from 1 to 1000 (calls), got "0"',
        'TOOLRUN_COMPUTE_QUEUE must be an integer from 0 to 100000 (calls), got "lots"',
        'TOOLRUN_ADMIN_RPM must be an integer from 1 to 1000000 (requests per minute), got "-1"',
      ],
    );
  });

  it("trusts no proxy by default, and reads a hop count, addresses and ranges, or true", () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TOOLRUN_TRUST_PROXY: "false" }).trustProxy, false);
    assert.equal(loadConfig({ TOOLRUN_TRUST_PROXY: "true" }).trustProxy, true);
    assert.equal(loadConfig({ TOOLRUN_TRUST_PROXY: "2" }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TOOLRUN_TRUST_PROXY: "10.0.0.1, 172.16.0.0/12,::1" }).trustProxy, [
      "10.0.0.1",
      "172.16.0.0/12",
      "::1",
    ]);
    for (const bad of ["0", "yes", "10.0.0.1/33", "10.0.0.1,proxy.example", "10.0.0.0/8/1"])
      assert.deepEqual(
        problemsOf({ TOOLRUN_TRUST_PROXY: bad }),
        [
          `TOOLRUN_TRUST_PROXY must be "false", "true", a number of hops from 1 to 32, or addresses and CIDR ranges separated by commas, got "${bad}"`,
        ],
        bad,
      );
  });

  it("refuses a bad value of any variable by what its declaration, and so the docs, say it accepts", () => {
    const postgres = { TOOLRUN_DATABASE: "postgres://u@db:5432/toolrun" };
    let refused = 0;
    for (const [name, variable] of Object.entries(VARIABLES)) {
      if (name === "TOOLRUN_CONFIG") continue; // any path is taken, then read: its own test above
      const found = problemsOf({ ...postgres, [name]: "%" });
      if (found.length === 0) continue; // a path or a name: "%" is one
      refused++;
      const secret = [
        "TOOLRUN_METRICS_TOKEN",
        "TOOLRUN_SIGNIN_CLIENT_SECRET",
        "TOOLRUN_STRIPE_SECRET_KEY",
        "TOOLRUN_STRIPE_WEBHOOK_SECRET",
      ].includes(name);
      const echo = secret ? "" : ', got "%"';
      assert.deepEqual(found, [`${name} must be ${variable.accepts}${echo}`], name);
    }
    assert.ok(refused >= 25, `${refused} variables refused "%"`);
  });

  it("reports the problems of several variables in the order the table lists them", () => {
    assert.deepEqual(
      problemsOf({ TOOLRUN_SHUTDOWN_TIMEOUT_MS: "x", LOG_LEVEL: "x", PORT: "x", TOOLRUN_OAUTH: "x" }).map(
        (problem) => problem.split(" ")[0],
      ),
      ["PORT", "TOOLRUN_OAUTH", "LOG_LEVEL", "TOOLRUN_SHUTDOWN_TIMEOUT_MS"],
    );
  });

  it("warns about unknown TOOLRUN_ variables with the closest known name", () => {
    assert.deepEqual(
      unknownVariableWarnings({
        TOOLRUN_DATABSE: "x",
        TOOLRUN_REDIS_ULR: "x",
        TOOLRUN_ZZZ: "x",
        TOOLRUN_DATABASE: "ok",
        HOME: "/root",
      }),
      [
        "TOOLRUN_DATABSE is not a toolrun variable and is ignored; did you mean TOOLRUN_DATABASE?",
        "TOOLRUN_REDIS_ULR is not a toolrun variable and is ignored; did you mean TOOLRUN_REDIS_URL?",
        "TOOLRUN_ZZZ is not a toolrun variable and is ignored",
      ],
    );
  });

  it("never warns about TOOLRUN_KEY and TOOLRUN_URL, which the client and the README's examples read", () => {
    assert.deepEqual(
      unknownVariableWarnings({ TOOLRUN_KEY: "tr_live_x", TOOLRUN_URL: "http://127.0.0.1:8080" }),
      [],
    );
  });
});
