import { createServer, connect, type Socket } from 'node:net';

export interface HoldingProxy {
  readonly port: number;
  /** Stops passing on what the target sends (it waits in the socket buffers, as on a slow link). */
  hold(): void;
  /** Passes on what was held, and everything after. */
  release(): void;
  /**
   * A partition: from now on nothing passes either way and nothing says so (no reset, as when
   * packets are dropped); a new connection is accepted and then hears nothing.
   */
  cut(): void;
  /**
   * Ends the partition: the connections caught in it are closed (as their peers time them out
   * by then), and new ones pass again.
   */
  heal(): void;
  stop(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to the local port `target` that can hold the target's bytes (between
 * a replica and its primary, a replication link that lags while the primary goes on
 * acknowledging) or cut the link both ways (one side of a network partition).
 */
export async function startHoldingProxy(target: number): Promise<HoldingProxy> {
  // Per connection: where the target's bytes go, and what is held for it.
  const links = new Map<Socket, { client: Socket; held: Buffer[] }>();
  /** Connections made or caught while cut: closed on heal. */
  const stranded = new Set<Socket>();
  let holding = false;
  let cut = false;
  const server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (cut) {
      stranded.add(client);
      client.on('close', () => stranded.delete(client));
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    const link = { client, held: [] as Buffer[] };
    links.set(upstream, link);
    client.on('data', (chunk: Buffer) => {
      if (!cut) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (cut) return;
      if (holding) link.held.push(chunk);
      else client.write(chunk);
    });
    const close = () => {
      links.delete(upstream);
      stranded.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
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
    cut() {
      cut = true;
      for (const link of links.values()) stranded.add(link.client);
    },
    heal() {
      cut = false;
      for (const client of stranded) client.destroy();
      stranded.clear();
    },
    async stop() {
      for (const client of stranded) client.destroy();
      for (const upstream of links.keys()) upstream.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
