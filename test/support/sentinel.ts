import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../scripts/redis-server.ts';
import { pollUntil } from './clock.ts';

export interface LocalSentinel {
  readonly port: number;
  /** A connection to the Sentinel itself (SENTINEL commands). */
  readonly client: Redis;
  /** The port of the master the Sentinel names now. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A Sentinel on 127.0.0.1 watching the local Redis on `masterPort` as `name`, alone (quorum 1)
 * unless told, in a temp dir of its own that stop() removes. Resolves once it knows `replicas`
 * replicas of it, so a failover can start at once. `failoverTimeoutMs` is also how long it leaves
 * a replica that replicates from another address (a proxy before the master) before pointing it
 * at the master. Several Sentinels of one master find each other through it.
 */
export async function startLocalSentinel({
  name,
  masterPort,
  replicas,
  failoverTimeoutMs = 10_000,
  quorum = 1,
  downAfterMs = 1_000,
}: {
  name: string;
  masterPort: number;
  replicas: number;
  failoverTimeoutMs?: number;
  quorum?: number;
  /** down-after-milliseconds: how long the master may not answer before it is called down. */
  downAfterMs?: number;
}): Promise<LocalSentinel> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'seedblock-sentinel-'));
  // Sentinel rewrites its configuration file as it learns, so it gets one of its own.
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${masterPort} ${quorum}`,
      `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
      `sentinel failover-timeout ${name} ${failoverTimeoutMs}`,
      '',
    ].join('\n'),
  );
  const child = spawn('redis-server', [config, '--sentinel'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, lazyConnect: true });
  client.on('error', () => {});
  const stop = async () => {
    client.disconnect();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pollUntil(
      async () => {
        try {
          if (client.status === 'wait') await client.connect();
          return ((await client.call('SENTINEL', 'REPLICAS', name)) as unknown[]).length;
        } catch {
          return -1; // not listening yet
        }
      },
      (known) => known >= replicas,
      { what: `Sentinel knowing ${replicas} replica(s) of ${name}`, everyMs: 100, timeoutMs: 15_000 },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    port,
    client,
    async masterPort() {
      const [, masterPort] = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as string[];
      return Number(masterPort);
    },
    stop,
  };
}
