import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Where `npm start` keeps its embedded Redis, so the operator CLI finds it without settings.
const DATA_DIR = join(import.meta.dirname, '..', '.data');
export const EMBEDDED_REDIS_DIR = join(DATA_DIR, 'redis');
export const EMBEDDED_REDIS_URL_FILE = join(DATA_DIR, 'redis.url');
export const EMBEDDED_REDIS_PORT = 6390;

/** REDIS_URL when set, else the URL of the Redis `npm start` runs, else undefined. */
export function resolveRedisUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.REDIS_URL) return env.REDIS_URL;
  if (existsSync(EMBEDDED_REDIS_URL_FILE)) return readFileSync(EMBEDDED_REDIS_URL_FILE, 'utf8').trim();
  return undefined;
}
