/**
 * Telemetry on OpenTelemetry's Node SDK: one tracer provider for the process, registered so that
 * the current span follows the request through its awaits (AsyncLocalStorage), spans batched to
 * OTLP over HTTP (JSON) and/or written to stdout as they end. The exporter reads the standard
 * `OTEL_EXPORTER_OTLP_*` variables, the sampler `OTEL_TRACES_SAMPLER`, the resource
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 */
import {
  type Context,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type {
  SpanAttributes,
  SpanOptions,
  Telemetry,
  TraceCarrier,
  TraceSpan,
} from "../../ports/telemetry.ts";
import { ERROR_TYPE } from "../../ports/trace-attributes.ts";

/** Where spans go: OTLP over HTTP, or stdout for a person reading them. */
export type TracesExporter = "otlp" | "console";

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

class OtelSpan implements TraceSpan {
  readonly span: Span;
  constructor(span: Span) {
    this.span = span;
  }
  get traceId(): string {
    return this.span.spanContext().traceId;
  }
  set(attributes: SpanAttributes): void {
    this.span.setAttributes(attributes);
  }
  rename(name: string): void {
    this.span.updateName(name);
  }
  fail(errorType: string, message?: string): void {
    this.span.setAttribute(ERROR_TYPE, errorType);
    this.span.setStatus(
      message === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message },
    );
  }
  end(): void {
    this.span.end();
  }
}

export function createOtelTelemetry(exporters: readonly TracesExporter[], version: string): Telemetry {
  const spanProcessors: SpanProcessor[] = exporters.map((exporter) =>
    exporter === "otlp"
      ? new BatchSpanProcessor(new OTLPTraceExporter())
      : new SimpleSpanProcessor(new ConsoleSpanExporter()),
  );
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "toolrun", [ATTR_SERVICE_VERSION]: version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  // The context manager is what carries the current span across awaits; the propagator is ours.
  provider.register({ propagator: null });
  const tracer = provider.getTracer("toolrun", version);
  const propagator = new W3CTraceContextPropagator();

  function parentOf(options: SpanOptions): { parent: Context; links: Link[] } {
    const active = context.active();
    if (options.parent === undefined) return { parent: active, links: [] };
    const extracted = propagator.extract(ROOT_CONTEXT, options.parent as TraceCarrier, defaultTextMapGetter);
    if (trace.getSpanContext(extracted) === undefined) return { parent: active, links: [] };
    const current = trace.getSpanContext(active);
    return { parent: extracted, links: options.linkCurrent && current ? [{ context: current }] : [] };
  }

  return {
    start(name, options) {
      const { parent, links } = parentOf(options);
      const span = tracer.startSpan(
        name,
        { kind: KINDS[options.kind], ...(options.attributes && { attributes: options.attributes }), links },
        parent,
      );
      return new OtelSpan(span);
    },
    within(span, work) {
      if (!(span instanceof OtelSpan)) return work();
      return context.with(trace.setSpan(context.active(), span.span), work);
    },
    current() {
      const span = trace.getActiveSpan();
      return span === undefined ? undefined : new OtelSpan(span);
    },
    headers() {
      const headers: Record<string, string> = {};
      propagator.inject(context.active(), headers, defaultTextMapSetter);
      return headers;
    },
    shutdown: () => provider.shutdown(),
  };
}
