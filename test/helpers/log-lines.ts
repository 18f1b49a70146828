/** The app's log, kept as parsed lines: pass `options` to createTestApp and read `lines` after. */
import { Writable } from "node:stream";
import type { TestAppOptions } from "./app.ts";

type Line = Record<string, unknown>;

/** `level`: the least level logged (default info; debug for what only debugging shows). */
export function collectLog(level = "info") {
  const lines: Line[] = [];
  const waiting: { readonly match: (line: Line) => boolean; readonly found: (line: Line) => void }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n").filter(Boolean)) {
        const line = JSON.parse(text) as Line;
        lines.push(line);
        for (const waiter of waiting.filter((w) => w.match(line))) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.found(line);
        }
      }
      done();
    },
  });
  const options = { appOptions: { logger: { level, stream } } } satisfies TestAppOptions;
  return {
    lines,
    options,
    requestLines: () => lines.filter((l) => "reqId" in l),
    /** The first line `match` accepts, once it is written. */
    lineWhere(match: (line: Line) => boolean): Promise<Line> {
      const written = lines.find(match);
      if (written) return Promise.resolve(written);
      return new Promise((found) => waiting.push({ match, found }));
    },
  };
}
