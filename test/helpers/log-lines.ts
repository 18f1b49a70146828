/** The app's log, kept as parsed lines: pass `options` to createTestApp and read `lines` after. */
import { Writable } from "node:stream";
import type { TestAppOptions } from "./app.ts";

export function collectLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const options = { appOptions: { logger: { level: "info", stream } } } satisfies TestAppOptions;
  return { lines, options, requestLines: () => lines.filter((l) => "reqId" in l) };
}
