// A redis-server of one suite's own, for what the shared one of global-setup.ts must not see:
// stopping it, killing it, filling its memory, reading CLIENT LIST. It lives in a temp dir that
// stop() removes; kill() and restart() keep its port and data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startLocalRedis, type LocalRedis } from '../../scripts/redis-server.ts';
import { pollUntil } from './clock.ts';

export interface PrivateRedisOptions {
  /** Names the temp dir (seedblock-<name>-…), so a leftover one says whose it is. */
  name: string;
  /** AOF with fsync always: what it acknowledged survives kill('SIGKILL') and restart(). */
  durable?: boolean;
  /** Runs as a replica of the local Redis on this port. */
  replicaOf?: number;
}

export interface PrivateRedis {
  /** Its temp dir, removed by stop(). */
  readonly dir: string;
  readonly port: number;
  readonly url: string;
  /** The redis-server running now (a new one after restart()). */
  readonly server: LocalRedis;
  /** The suite's own client, connected on first use; it rides out kill() and restart(). */
  readonly observer: Redis;
  /** Ends redis-server with SIGTERM (or `signal`) and waits for its exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts redis-server again on the same port and data (after kill()). */
  restart(): Promise<void>;
  /** Ends everything and removes the dir. */
  stop(): Promise<void>;
}

export async function startPrivateRedis({
  name,
  durable = false,
  replicaOf,
}: PrivateRedisOptions): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), `seedblock-${name}-`));
  let server: LocalRedis;
  try {
    server = await startLocalRedis({ dir, durable, replicaOf });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let observer: Redis | undefined;
  return {
    dir,
    port: server.port,
    url: server.url,
    get server() {
      return server;
    },
    get observer() {
      if (!observer) {
        observer = new Redis(server.url, { maxRetriesPerRequest: 1 });
        observer.on('error', () => {}); // while it is down, the suite's own calls say so
      }
      return observer;
    },
    kill: (signal) => server.stop(signal),
    async restart() {
      server = await startLocalRedis({ dir, port: server.port, durable, replicaOf });
    },
    async stop() {
      observer?.disconnect();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the primary `client` is connected to lists `count` replicas online: it says so only
 * at a replica's first acknowledgment after its copy, a moment after the replica's link is up.
 */
export async function waitReplicasOnline(client: Redis, count: number, timeoutMs?: number): Promise<void> {
  await pollUntil(
    () => client.info('replication'),
    (info) => (info.match(/^slave\d+:.*state=online/gm)?.length ?? 0) >= count,
    { what: `${count} replicas online`, everyMs: 50, timeoutMs },
  );
}

/** Waits until the replica `client` is connected to has its link to the primary up (a first full copy loaded). */
export async function waitReplicaLinkUp(client: Redis, timeoutMs?: number): Promise<void> {
  await pollUntil(
    () => client.info('replication'),
    (info) => /master_link_status:up/.test(info),
    { what: 'replica link to the primary up', everyMs: 50, timeoutMs },
  );
}
