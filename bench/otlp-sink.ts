/**
 * An OTLP/HTTP receiver that reads and drops what it is sent, for measuring what tracing costs a
 * server without a collector's own work on the machine: `node bench/otlp-sink.ts [port]` (default
 * 4318), then run the bench with `OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318`. It prints the
 * spans it received when stopped.
 */
import { createServer } from "node:http";

const port = Number(process.argv[2] ?? 4318);
let bodies = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  request.on("end", () => {
    bodies++;
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
server.listen(port, "127.0.0.1", () => process.stderr.write(`OTLP sink on http://127.0.0.1:${port}\n`));
const stop = () => {
  process.stderr.write(`OTLP sink: ${bodies} exports, ${bytes} bytes\n`);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
