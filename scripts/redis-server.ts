import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { Redis } from 'ioredis';
import { ensureDebianPackage } from './debian-package.ts';

// Runs a local redis-server: the embedded default of `npm start` and the throwaway server of
// `npm test`. Only ever binds 127.0.0.1.

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** True when a TCP connection to 127.0.0.1:`port` is accepted (false when not within `timeoutMs`). */
export function portOpen(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

export interface LocalRedisOptions {
  dir: string;
  port?: number;
  /** AOF with fsync on every write: nothing acknowledged is lost on a crash. */
  durable: boolean;
  /** Runs as a replica of the local Redis on this port. */
  replicaOf?: number;
  /** Told the pid as soon as it exists, before it answers (a supervisor's orphan guard). */
  spawned?: (pid: number) => void;
}

export interface LocalRedis {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Stops with SIGTERM (or `signal`) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function waitForRedis(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Bounded: a listener that is not Redis accepts the connection and never answers the PING.
    const probe = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1_000,
      commandTimeout: 1_000,
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // not up yet (or still loading its AOF)
    } finally {
      probe.disconnect();
    }
    if (Date.now() > deadline) throw new Error(`redis at ${url} did not come up in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startLocalRedis({
  dir,
  port,
  durable,
  replicaOf,
  spawned,
}: LocalRedisOptions): Promise<LocalRedis> {
  ensureDebianPackage('redis-server', 'redis-server');
  mkdirSync(dir, { recursive: true });
  const chosenPort = port ?? (await freePort());
  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    String(chosenPort),
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    ...(durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)]),
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (child.pid !== undefined) spawned?.(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${chosenPort}`;
  try {
    await Promise.race([
      waitForRedis(url),
      exited.then(() => {
        throw new Error(`redis-server exited at start (is port ${chosenPort} taken?)`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url,
    port: chosenPort,
    process: child,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
