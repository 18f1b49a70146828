/**
 * A loopback TCP proxy the tests can cut, freeze and restore, to take a backend away from one
 * toolrun process (and give it back) without touching the shared PostgreSQL or Redis.
 * - cut() stops listening and destroys every open connection, so the process sees both a dropped
 *   connection and a refused one; restore() listens again on the same port.
 * - freeze() is a network stall: every connection stays open but no byte moves either way (new
 *   connections are accepted and stall too) until release() delivers what was held, in order.
 * - freezeOpen() stalls only the connections open now (one path losing packets); new connections
 *   flow.
 * - A client that closes while its bytes are held is treated as TCP treats it: what it sent still
 *   reaches the server on release, followed by the end of the connection.
 * - freezeOn(marker, hold) stalls only the connection that sends a chunk containing `marker` (a
 *   PostgreSQL statement name, say), from that chunk on: "request" holds the chunk itself, so the
 *   statement has not reached the server; "response" delivers it and holds what the server
 *   answers, so the statement ran but the client does not know. Other connections keep flowing.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export type Hold = "request" | "response";

export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  freeze(): void;
  freezeOpen(): void;
  /** Resolves once a chunk containing `marker` has been seen (and held as `hold` says). */
  freezeOn(marker: string, hold: Hold): Promise<void>;
  /** Delivers everything held, in order, and lets traffic flow again. */
  release(): void;
  close(): Promise<void>;
}

/** One direction of one connection: forwards chunks, or keeps them while held. */
class Pipe {
  held: Buffer[] | null = null;
  readonly to: Socket;
  /** The sending side has closed: end `to` once what is held is delivered. */
  private ending = false;
  ended = false;
  constructor(to: Socket) {
    this.to = to;
  }
  push(chunk: Buffer): void {
    if (this.held) this.held.push(chunk);
    else if (!this.to.destroyed) this.to.write(chunk);
  }
  hold(): void {
    this.held ??= [];
  }
  /** The sender went away: end now, or after the held bytes when there are any. */
  end(): void {
    if (this.held) this.ending = true;
    else {
      this.ended = true;
      this.to.destroy();
    }
  }
  release(): void {
    const held = this.held;
    this.held = null;
    for (const chunk of held ?? []) if (!this.to.destroyed) this.to.write(chunk);
    if (this.ending) {
      this.ended = true;
      this.to.end();
    }
  }
}

interface Trap {
  readonly marker: string;
  readonly hold: Hold;
  readonly sprung: () => void;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pipes = new Set<Pipe>();
  let frozen = false;
  let trap: Trap | null = null;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    track(client);
    track(upstream);
    const up = new Pipe(upstream);
    const down = new Pipe(client);
    pipes.add(up).add(down);
    if (frozen) {
      up.hold();
      down.hold();
    }
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => {
      up.end();
      pipes.delete(down);
      if (up.ended) pipes.delete(up);
    });
    upstream.on("close", () => client.destroy());
    client.on("data", (chunk: Buffer) => {
      if (trap && chunk.includes(trap.marker)) {
        const sprung = trap;
        trap = null;
        if (sprung.hold === "request") up.hold();
        down.hold();
        up.push(chunk);
        up.hold();
        sprung.sprung();
        return;
      }
      up.push(chunk);
    });
    upstream.on("data", (chunk: Buffer) => down.push(chunk));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("proxy has no address");
  const port = address.port;
  let listening = true;

  async function cut(): Promise<void> {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  return {
    port,
    cut,
    async restore() {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    freeze() {
      frozen = true;
      for (const pipe of pipes) pipe.hold();
    },
    freezeOpen() {
      for (const pipe of pipes) pipe.hold();
    },
    freezeOn(marker, hold) {
      return new Promise((sprung) => {
        trap = { marker, hold, sprung };
      });
    },
    release() {
      frozen = false;
      trap = null;
      for (const pipe of pipes) {
        pipe.release();
        if (pipe.ended) pipes.delete(pipe);
      }
    },
    close: cut,
  };
}

/** A proxy in front of the server a postgres:// or redis:// URL names, and the same URL through it. */
export async function proxyUrl(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === "redis:" ? 6379 : 5432));
  const proxy = await startTcpProxy(target.hostname, port);
  const through = new URL(url);
  through.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: through.href };
}
