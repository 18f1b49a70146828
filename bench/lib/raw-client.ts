/**
 * A minimal keep-alive HTTP/1.1 client over raw sockets for the paced generator: the request is
 * encoded once, and a response is read only as far as its status and Content-Length. Much cheaper
 * per request than node:http, so the generator keeps its schedule at the rates the bench uses.
 * Handles only what the bench's servers send: one response per request, sized by Content-Length.
 */
import { connect, type Socket } from "node:net";

export function encodeRequest(
  url: URL,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: Buffer | undefined,
): Buffer {
  const lines = [
    `${method} ${url.pathname}${url.search} HTTP/1.1`,
    `host: ${url.host}`,
    "connection: keep-alive",
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return body === undefined ? head : Buffer.concat([head, body]);
}

const HEAD_END = Buffer.from("\r\n\r\n");

export class RawConnection {
  busy = false;
  /** Closed or failed: the pool drops it. */
  dead = false;
  private readonly socket: Socket;
  private chunks: Buffer[] = [];
  private received = 0;
  private status = 0;
  private expected = -1;
  private onDone: ((status: number | null) => void) | null = null;

  /** Resolves once connected (or failed: a dead connection is simply skipped). */
  readonly ready: Promise<void>;

  constructor(host: string, port: number) {
    this.socket = connect({ host, port, noDelay: true });
    this.ready = new Promise((resolve) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("close", () => resolve());
    });
    this.socket.on("data", (chunk: Buffer) => this.read(chunk));
    this.socket.on("error", () => this.fail());
    this.socket.on("close", () => this.fail());
  }

  send(request: Buffer, onDone: (status: number | null) => void): void {
    this.busy = true;
    this.onDone = onDone;
    this.chunks = [];
    this.received = 0;
    this.expected = -1;
    this.socket.write(request);
  }

  close(): void {
    this.dead = true;
    this.socket.destroy();
  }

  private fail(): void {
    this.dead = true;
    this.finish(null);
  }

  private read(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.expected < 0) {
      const all = Buffer.concat(this.chunks);
      const end = all.indexOf(HEAD_END);
      if (end < 0) return;
      const head = all.subarray(0, end).toString("latin1");
      this.status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
      this.expected = end + HEAD_END.length + Number(length ?? 0);
      this.chunks = [all];
    }
    if (this.received >= this.expected) this.finish(this.status);
  }

  private finish(status: number | null): void {
    const done = this.onDone;
    this.onDone = null;
    this.busy = false;
    done?.(status);
  }
}
