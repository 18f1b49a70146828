/**
 * One request sent again and again on one keep-alive connection, each as soon as the last is
 * answered, from a child process of its own (`startCallStream`), so that its megabytes are read
 * and collected there and not on the event loop of the generator whose latencies the bench reports.
 */
import { fork } from "node:child_process";
import { encodeRequest, RawConnection } from "./raw-client.ts";
import type { Target } from "./runs.ts";

export interface StreamCounts {
  readonly ok: number;
  readonly failed: number;
}

type ToChild = { readonly start: Target } | { readonly stop: true };
type FromChild = { readonly started: true } | { readonly counts: StreamCounts };

/** Starts the stream in a child process (on the bench's CPUs); `stop` ends it and says how the calls answered. */
export async function startCallStream(target: Target): Promise<{ stop: () => Promise<StreamCounts> }> {
  const child = fork(new URL(import.meta.url), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      child.once("message", (message) => resolve(message as FromChild));
      child.once("exit", (code) => reject(new Error(`the call stream exited (${code})`)));
    });
  const started = next();
  child.send({ start: target } satisfies ToChild);
  await started;
  return {
    async stop() {
      const answered = next();
      child.send({ stop: true } satisfies ToChild);
      const message = await answered;
      child.disconnect();
      if (!("counts" in message)) throw new Error("the call stream answered out of turn");
      return message.counts;
    },
  };
}

/** The child: sends until told to stop, then reports. */
function streamCalls(target: Target): { stop: () => Promise<StreamCounts> } {
  const url = new URL(target.url);
  const request = encodeRequest(url, "POST", target.headers, Buffer.from(target.body ?? ""));
  const connection = new RawConnection(url.hostname, Number(url.port || 80));
  const counts = { ok: 0, failed: 0 };
  let stopping = false;
  const finished = new Promise<void>((resolve) => {
    const next = () => {
      if (stopping || connection.dead) return resolve();
      connection.send(request, (status) => {
        if (status !== null && status >= 200 && status < 300) counts.ok++;
        else counts.failed++;
        next();
      });
    };
    void connection.ready.then(next);
  });
  return {
    async stop() {
      stopping = true;
      await finished;
      connection.close();
      return counts;
    },
  };
}

if (process.send !== undefined && process.argv[1] === new URL(import.meta.url).pathname) {
  let stream: ReturnType<typeof streamCalls> | undefined;
  process.on("message", (message: ToChild) => {
    if ("start" in message) {
      stream = streamCalls(message.start);
      process.send?.({ started: true } satisfies FromChild);
    } else if (stream !== undefined) {
      void stream.stop().then((counts) => process.send?.({ counts } satisfies FromChild));
    }
  });
  process.on("disconnect", () => process.exit(0));
}
