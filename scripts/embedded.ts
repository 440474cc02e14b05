import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigSchema } from '../runtime/config.ts';

// Where `npm start` keeps its embedded Redis (DATA_DIR, relative to the checkout), so the
// operator CLI and the bot find it without settings.

const ROOT = join(import.meta.dirname, '..');

export interface EmbeddedPaths {
  /** DATA_DIR, absolute. */
  dataDir: string;
  /** The Redis's own directory: its AOF directory (appendonlydir) lives here. */
  redisDir: string;
  /** The URL of the running embedded Redis; present while `npm start` runs. */
  urlFile: string;
  /** Held by the running `npm start`: its pid and Redis port. */
  lockFile: string;
}

export function embeddedPaths(dataDir: string): EmbeddedPaths {
  const dir = resolve(ROOT, dataDir);
  return {
    dataDir: dir,
    redisDir: join(dir, 'redis'),
    urlFile: join(dir, 'redis.url'),
    lockFile: join(dir, 'start.lock'),
  };
}

/** REDIS_URL when set, else the URL of the Redis `npm start` runs in DATA_DIR, else undefined. */
export function resolveRedisUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.REDIS_URL) return env.REDIS_URL;
  const dataDir = ConfigSchema.shape.DATA_DIR.safeParse(env.DATA_DIR || undefined);
  if (!dataDir.success) return undefined; // loadConfig names the variable
  const { urlFile } = embeddedPaths(dataDir.data);
  if (existsSync(urlFile)) return readFileSync(urlFile, 'utf8').trim();
  return undefined;
}
