/**
 * The backend and request timeouts (docs/configuration.md), and configured numbers every store can
 * hold.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

function problemsOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems.join("\n");
  }
  assert.fail("the configuration was accepted");
}

function withConfigFile(contents: unknown, run: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-config-"));
  try {
    const path = join(dir, "toolrun.json");
    writeFileSync(path, JSON.stringify(contents));
    run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("loadConfig: backend timeouts", () => {
  it("defaults to 5000 ms per database or Redis wait and 120 s before a pending call is swept", () => {
    const config = loadConfig({});
    assert.equal(config.dbTimeoutMs, 5000);
    assert.equal(config.callAbandonS, 120);
    assert.equal(config.requestTimeoutMs, 30_000);
  });

  it("reads TOOLRUN_REQUEST_TIMEOUT_MS, and names it when bad", () => {
    assert.equal(loadConfig({ TOOLRUN_REQUEST_TIMEOUT_MS: "1500" }).requestTimeoutMs, 1500);
    for (const bad of ["0", "soon", "99"])
      assert.match(
        problemsOf(() => loadConfig({ TOOLRUN_REQUEST_TIMEOUT_MS: bad })),
        /TOOLRUN_REQUEST_TIMEOUT_MS/,
      );
  });

  it("reads TOOLRUN_DB_TIMEOUT_MS and TOOLRUN_CALL_ABANDON_S, and names them when bad", () => {
    const config = loadConfig({ TOOLRUN_DB_TIMEOUT_MS: "750", TOOLRUN_CALL_ABANDON_S: "2" });
    assert.equal(config.dbTimeoutMs, 750);
    assert.equal(config.callAbandonS, 2);
    for (const [dbTimeout, abandon] of [
      ["0", "0"],
      ["abc", "-5"],
      ["1e3", "86401"],
    ] as const) {
      const text = problemsOf(() =>
        loadConfig({ TOOLRUN_DB_TIMEOUT_MS: dbTimeout, TOOLRUN_CALL_ABANDON_S: abandon }),
      );
      assert.match(text, /TOOLRUN_DB_TIMEOUT_MS/);
      assert.match(text, /TOOLRUN_CALL_ABANDON_S/);
    }
  });
});

describe("loadConfig: numbers every store can hold", () => {
  it("rejects a count beyond a 32-bit integer column, and accepts the largest one", () => {
    withConfigFile(
      {
        plans: { builder: { monthlyCredits: 3_000_000_000 }, free: { rpm: 2 ** 31 } },
        tools: { echo: { weight: 2 ** 40, freeTierMonthlyCalls: 2 ** 31 } },
      },
      (path) => {
        const text = problemsOf(() => loadConfig({ TOOLRUN_CONFIG: path }));
        for (const part of [
          "plans.builder.monthlyCredits",
          "plans.free.rpm",
          "tools.echo.weight",
          "tools.echo.freeTierMonthlyCalls",
        ]) {
          assert.ok(text.includes(part), `${part} missing from:\n${text}`);
        }
      },
    );
    withConfigFile({ plans: { builder: { monthlyCredits: 2_147_483_647 } } }, (path) => {
      assert.equal(
        loadConfig({ TOOLRUN_CONFIG: path }).settings.plans.builder?.monthlyCredits,
        2_147_483_647,
      );
    });
  });

  it("takes no plan named like an Object.prototype member", () => {
    for (const id of ["constructor", "tostring", "valueof"]) {
      withConfigFile({ plans: { [id]: { rpm: 1, monthlyCredits: 1, minCredits: 1 } } }, (path) => {
        const config = (() => {
          try {
            return loadConfig({ TOOLRUN_CONFIG: path });
          } catch (error) {
            assert.ok(error instanceof ConfigError);
            assert.match(error.problems.join("\n"), new RegExp(`plans\\.${id}`));
            return null;
          }
        })();
        // Either refused by name, or an own member like any other plan.
        if (config) assert.ok(Object.hasOwn(config.settings.plans, id));
      });
    }
    withConfigFile({ plans: { constructor: { rpm: 5 } } }, (path) => {
      const text = problemsOf(() => loadConfig({ TOOLRUN_CONFIG: path }));
      assert.match(text, /plans\.constructor/);
    });
  });
});
