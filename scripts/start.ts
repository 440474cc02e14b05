import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../store/config.ts';
import { EMBEDDED_REDIS_DIR, EMBEDDED_REDIS_PORT, EMBEDDED_REDIS_URL_FILE } from './embedded.ts';
import { startLocalRedis, waitForRedis, type LocalRedis } from './redis-server.ts';

// `npm start`: the whole service on one machine. With REDIS_URL unset it runs its own durable
// redis-server (AOF, fsync always, data under .data/redis); then the API, the generator worker
// and, when DISCORD_TOKEN is set, the chat bot, each as its own process on that Redis.

const root = join(import.meta.dirname, '..');
const log = (line: string) => console.log(JSON.stringify({ name: 'start', msg: line }));

interface Part {
  name: string;
  entry: string;
  off?: string;
}

async function main() {
  const config = loadConfig();
  let redis: LocalRedis | undefined;
  let redisUrl = config.REDIS_URL;
  if (!redisUrl) {
    const url = `redis://127.0.0.1:${EMBEDDED_REDIS_PORT}`;
    const running = await waitForRedis(url, 300).then(
      () => true,
      () => false,
    );
    if (running) {
      log(`using the embedded redis already running at ${url}`);
    } else {
      redis = await startLocalRedis({ dir: EMBEDDED_REDIS_DIR, port: EMBEDDED_REDIS_PORT, durable: true });
      log(`embedded redis-server at ${redis.url} (data in .data/redis)`);
    }
    redisUrl = url;
    writeFileSync(EMBEDDED_REDIS_URL_FILE, `${url}\n`);
  }

  const parts: Part[] = [
    { name: 'api', entry: 'api/main.ts' },
    { name: 'generator', entry: 'generator/main.ts' },
    {
      name: 'bot',
      entry: 'bot/main.ts',
      off: config.DISCORD_TOKEN ? undefined : 'chat bot off: DISCORD_TOKEN is not set',
    },
  ];
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
    );
    if (redis) {
      await redis.stop();
      rmSync(EMBEDDED_REDIS_URL_FILE, { force: true });
    }
    process.exit(code);
  };

  for (const part of parts) {
    if (part.off) {
      log(part.off);
      continue;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, part.entry)], {
      cwd: root,
      env: { ...process.env, REDIS_URL: redisUrl },
      stdio: 'inherit',
    });
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log(`${part.name} exited (${signal ?? code}); stopping the service`);
      void stop(code || 1);
    });
    children.push(child);
  }
  log(`seedblock running: http://localhost:${config.PORT}/  (API under ${config.API_PREFIX})`);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err instanceof Error ? err.message : err);
  process.exit(1);
});
