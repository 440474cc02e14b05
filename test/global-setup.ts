import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalRedis } from '../scripts/redis-server.ts';

// One throwaway redis-server for the whole run (each suite works under its own key prefix).
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'seedblock-test-redis-'));
  const redis = await startLocalRedis({ dir, durable: false });
  project.provide('redisUrl', redis.url);
  return async () => {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
