/**
 * Tracing off costs nothing at start-up: a server started without OTEL_* variables loads no module
 * of the OpenTelemetry SDK. The same start with `OTEL_TRACES_EXPORTER=console` does, which shows the
 * probe sees them. (`@opentelemetry/api`, the SDK's no-op facade, is loaded either way: prom-client
 * requires it for its exemplars.)
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runScript } from "../../helpers/process.ts";

/** Starts the server in process as `toolrun serve` does, closes it, and prints the SDK modules loaded. */
const PROBE = `
import { registerHooks } from "node:module";
const loaded = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const match = /node_modules\\/(@opentelemetry\\/[^/]+)\\//.exec(resolved.url);
    if (match && match[1] !== "@opentelemetry/api") loaded.add(match[1]);
    return resolved;
  },
});
const { loadConfig } = await import("./src/config.ts");
const { startServer } = await import("./src/server.ts");
const server = await startServer(loadConfig(process.env), { migrate: true, err: () => {} });
await server.close();
process.stdout.write(JSON.stringify([...loaded].sort()));
`;

describe("tracing off", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-traces-off-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const modulesLoaded = async (env: Record<string, string>): Promise<string[]> => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !name.startsWith("OTEL_") && !name.startsWith("TOOLRUN_"),
      ),
    );
    const run = await runScript("--input-type=module", ["-e", PROBE], {
      ...clean,
      TOOLRUN_DATABASE: join(dir, `${Object.keys(env).length}.db`),
      PORT: "0",
      LOG_LEVEL: "error",
      ...env,
    });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout.slice(run.stdout.lastIndexOf("["))) as string[];
  };

  it("loads no module of the OpenTelemetry SDK when no OTEL_* variable asks for traces", async () => {
    assert.deepEqual(await modulesLoaded({}), []);
  });

  it("loads the SDK when OTEL_TRACES_EXPORTER asks for traces", async () => {
    const loaded = await modulesLoaded({ OTEL_TRACES_EXPORTER: "console" });
    assert.ok(loaded.includes("@opentelemetry/sdk-trace-node"), loaded.join(", "));
  });
});
