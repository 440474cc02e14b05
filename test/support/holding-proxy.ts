import { createServer, connect, type Socket } from 'node:net';

export interface HoldingProxy {
  readonly port: number;
  /** Stops passing on what the target sends (it waits in the socket buffers, as on a slow link). */
  hold(): void;
  /** Passes on what was held, and everything after. */
  release(): void;
  stop(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to the local port `target` that can hold the target's bytes: between a
 * replica and its primary, a replication link that lags while the primary goes on acknowledging.
 */
export async function startHoldingProxy(target: number): Promise<HoldingProxy> {
  // Per connection: where the target's bytes go, and what is held for it.
  const links = new Map<Socket, { client: Socket; held: Buffer[] }>();
  let holding = false;
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    const link = { client, held: [] as Buffer[] };
    links.set(upstream, link);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => (holding ? link.held.push(chunk) : client.write(chunk)));
    const close = () => {
      links.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const link of links.values()) for (const chunk of link.held.splice(0)) link.client.write(chunk);
    },
    async stop() {
      for (const upstream of links.keys()) upstream.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
