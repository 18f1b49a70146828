/**
 * Whether traces are on, read from OpenTelemetry's own variables, and the Telemetry when they are.
 * The SDK is imported only then: with tracing off no module of it is loaded.
 */
import type { Telemetry } from "../../ports/telemetry.ts";
// A type only, erased when the file runs: the SDK is loaded by the import() below alone.
import type { TracesExporter } from "./otel.ts";

type Env = Readonly<Record<string, string | undefined>>;

const EXPORTERS: readonly string[] = ["otlp", "console", "none"];

/**
 * The exporters OpenTelemetry's variables ask for: `OTEL_TRACES_EXPORTER` when set (otlp, console,
 * or none), else OTLP when an OTLP endpoint is named, else none. `OTEL_SDK_DISABLED=true` wins.
 * Throws on an exporter toolrun does not ship.
 */
export function tracesExportersOf(env: Env): TracesExporter[] {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return [];
  const named = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  const unknown = named.filter((name) => !EXPORTERS.includes(name));
  if (unknown.length > 0)
    throw new Error(
      `OTEL_TRACES_EXPORTER must name otlp, console or none, got "${env.OTEL_TRACES_EXPORTER}"`,
    );
  if (named.length > 0)
    return named.includes("none")
      ? []
      : (["otlp", "console"] as const).filter((exporter) => named.includes(exporter));
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint ? ["otlp"] : [];
}

/** The Telemetry the environment asks for, or undefined when tracing is off. */
export async function createTelemetry(env: Env, version: string): Promise<Telemetry | undefined> {
  const exporters = tracesExportersOf(env);
  if (exporters.length === 0) return undefined;
  const { createOtelTelemetry } = await import("./otel.ts");
  return createOtelTelemetry(exporters, version);
}
