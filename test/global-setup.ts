import type { TestProject } from 'vitest/node';
import { startPrivateRedis } from './support/private-redis.ts';

// One throwaway redis-server for the whole run (each suite works under its own key prefix).
export default async function setup(project: TestProject) {
  const redis = await startPrivateRedis({ name: 'test-redis' });
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
