import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a backing service (PostgreSQL, Redis) that can refuse connections (stopped) or
 * hold all traffic (frozen), so fault tests never stop the machine's own servers.
 */
export class FaultyProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly held: Array<() => void> = [];
  private frozen = false;
  port = 0;

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  async start(): Promise<void> {
    this.frozen = false;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stopped: every connection dropped and new ones refused. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /** Frozen: connections stay open and new ones are accepted, but nothing is passed either way. */
  freeze(): void {
    this.frozen = true;
  }

  resume(): void {
    this.frozen = false;
    for (const release of this.held.splice(0)) release();
  }

  private accept(client: Socket) {
    const upstream = connect(this.upstreamPort, this.upstreamHost);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        const pass = () => {
          if (!to.destroyed) to.write(chunk);
        };
        if (this.frozen) this.held.push(pass);
        else pass();
      });
      from.on('close', () => {
        to.destroy();
        this.sockets.delete(from);
      });
      from.on('error', () => to.destroy());
    };
    forward(client, upstream);
    forward(upstream, client);
  }
}

/** How long `work` took, in whole milliseconds, with what it gave. */
export const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
};

/** Polls the app's /readyz until it answers 200 (the backing service is back); the time that took. */
export const untilReady = (app: {
  inject: (options: { method: 'GET'; url: string }) => Promise<{ statusCode: number }>;
}) =>
  timed(async () => {
    for (;;) {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      if (ready.statusCode === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
