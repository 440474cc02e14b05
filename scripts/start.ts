import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../store/config.ts';
import { createLogger } from '../store/logger.ts';
import { SHUTDOWN_GRACE_MS } from '../store/process.ts';
import { EMBEDDED_REDIS_DIR, EMBEDDED_REDIS_PORT, EMBEDDED_REDIS_URL_FILE } from './embedded.ts';
import { startLocalRedis, waitForRedis, type LocalRedis } from './redis-server.ts';

// `npm start`: the whole service on one machine. With REDIS_URL unset it runs its own durable
// redis-server (AOF, fsync always, data under .data/redis); then the API, the generator worker
// and, when DISCORD_TOKEN is set, the chat bot, each as its own process on that Redis.
// SIGTERM or SIGINT stops them all within SHUTDOWN_GRACE_MS (plus Redis's own stop).

const root = join(import.meta.dirname, '..');
/**
 * The embedded Redis stops after the processes using it, and is killed if it takes longer than
 * this (AOF with fsync always: nothing it acknowledged is lost).
 */
const REDIS_STOP_MS = 500;

interface Part {
  name: string;
  entry: string;
  off?: string;
}

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'start');
  const children: ChildProcess[] = [];
  let redis: Promise<LocalRedis | undefined> = Promise.resolve(undefined);
  let stopping = false;
  const running = () => children.filter((c) => c.exitCode === null && c.signalCode === null);
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const left = running();
    for (const child of left) child.kill('SIGTERM');
    // Each stops within the grace period by itself; whatever has not by then is killed.
    const deadline = setTimeout(() => {
      for (const child of running()) child.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS);
    await Promise.all(left.map((c) => new Promise((r) => c.once('exit', r))));
    clearTimeout(deadline);
    const embedded = await redis.catch(() => undefined);
    if (embedded) {
      const kill = setTimeout(() => embedded.process.kill('SIGKILL'), REDIS_STOP_MS);
      await embedded.stop();
      clearTimeout(kill);
      rmSync(EMBEDDED_REDIS_URL_FILE, { force: true });
    }
    process.exit(code);
  };
  // From the start and for the whole stop: Ctrl-C also reaches every process of the group, and
  // npm passes a signal on as well; a repeated one must not end this process before its children.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  let redisUrl = config.REDIS_URL;
  if (!redisUrl) {
    const url = `redis://127.0.0.1:${EMBEDDED_REDIS_PORT}`;
    const alreadyRunning = await waitForRedis(url, 300).then(
      () => true,
      () => false,
    );
    if (alreadyRunning) {
      logger.info(`using the embedded redis already running at ${url}`);
    } else {
      const started = startLocalRedis({ dir: EMBEDDED_REDIS_DIR, port: EMBEDDED_REDIS_PORT, durable: true });
      redis = started;
      logger.info(`embedded redis-server at ${(await started).url} (data in .data/redis)`);
    }
    redisUrl = url;
    writeFileSync(EMBEDDED_REDIS_URL_FILE, `${url}\n`);
  }
  if (stopping) return;

  const parts: Part[] = [
    { name: 'api', entry: 'api/main.ts' },
    { name: 'generator', entry: 'generator/main.ts' },
    {
      name: 'bot',
      entry: 'bot/main.ts',
      off: config.DISCORD_TOKEN ? undefined : 'chat bot off: DISCORD_TOKEN is not set',
    },
  ];
  for (const part of parts) {
    if (part.off) {
      logger.info(part.off);
      continue;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, part.entry)], {
      cwd: root,
      env: { ...process.env, REDIS_URL: redisUrl },
      stdio: 'inherit',
    });
    child.once('exit', (code, signal) => {
      if (stopping) return;
      logger.info(`${part.name} exited (${signal ?? code}); stopping the service`);
      void stop(code || 1);
    });
    children.push(child);
  }
  logger.info(`seedblock running: http://localhost:${config.PORT}/  (API under ${config.API_PREFIX})`);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err instanceof Error ? err.message : err);
  process.exit(1);
});
