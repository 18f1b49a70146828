/**
 * An HTTP tool's outward request as a client span, a child of the call's, its context sent along
 * in `traceparent` so the upstream joins the trace. The span names the upstream by scheme, host,
 * port and path: never the query (where a declared secret may travel) nor a header value.
 */
import type { Telemetry } from "../../ports/telemetry.ts";
import {
  HTTP_REQUEST_METHOD,
  HTTP_RESPONSE_STATUS_CODE,
  SERVER_ADDRESS,
  SERVER_PORT,
  URL_FULL,
} from "../../ports/trace-attributes.ts";
import type { Upstream, UpstreamResult } from "../../ports/upstream.ts";

export function withUpstreamSpans(upstream: Upstream, telemetry: Telemetry): Upstream {
  return {
    async send(request) {
      const url = new URL(request.url);
      const span = telemetry.start(request.method, {
        kind: "client",
        attributes: {
          [HTTP_REQUEST_METHOD]: request.method,
          [SERVER_ADDRESS]: url.hostname,
          [SERVER_PORT]: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
          [URL_FULL]: `${url.protocol}//${url.host}${url.pathname}`,
        },
      });
      try {
        const headers = { ...request.headers, ...telemetry.within(span, () => telemetry.headers()) };
        const result = await upstream.send({ ...request, headers });
        record(span, result);
        return result;
      } finally {
        span.end();
      }
    },
  };
}

function record(span: ReturnType<Telemetry["start"]>, result: UpstreamResult): void {
  if (result.kind === "response" || result.kind === "too_large") {
    span.set({ [HTTP_RESPONSE_STATUS_CODE]: result.status });
    if (result.status >= 400) span.fail(String(result.status));
    else if (result.kind === "too_large") span.fail("response_too_large");
    return;
  }
  span.fail(result.kind === "unreachable" ? result.reason : result.kind);
}
