import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tracesExportersOf } from "../../src/adapters/telemetry/index.ts";

describe("whether traces are on, read from OpenTelemetry's variables", () => {
  it("is off with no OTEL_* variable", () => {
    assert.deepEqual(tracesExportersOf({}), []);
  });

  it("exports over OTLP once an endpoint is named, the general one or the traces' own", () => {
    assert.deepEqual(tracesExportersOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }), ["otlp"]);
    assert.deepEqual(tracesExportersOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }), [
      "otlp",
    ]);
  });

  it("takes OTEL_TRACES_EXPORTER over an endpoint: otlp, console, both, or none", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    assert.deepEqual(tracesExportersOf({ OTEL_TRACES_EXPORTER: "otlp" }), ["otlp"]);
    assert.deepEqual(tracesExportersOf({ ...endpoint, OTEL_TRACES_EXPORTER: "console" }), ["console"]);
    assert.deepEqual(tracesExportersOf({ OTEL_TRACES_EXPORTER: " Console , otlp" }), ["otlp", "console"]);
    assert.deepEqual(tracesExportersOf({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }), []);
  });

  it("is off when OTEL_SDK_DISABLED is true, whatever else is set", () => {
    assert.deepEqual(tracesExportersOf({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }), []);
  });

  it("refuses an exporter toolrun does not ship, naming the ones it does", () => {
    assert.throws(
      () => tracesExportersOf({ OTEL_TRACES_EXPORTER: "zipkin" }),
      /OTEL_TRACES_EXPORTER must name otlp, console or none, got "zipkin"/,
    );
  });
});
