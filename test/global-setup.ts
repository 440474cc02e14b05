import type { TestProject } from 'vitest/node';
import { ensureViewerBuilt } from './support/e2e-stack.ts';
import { startPrivateRedis } from './support/private-redis.ts';

// One throwaway redis-server for each project of the run (each suite works under its own key
// prefix), and the viewer built once, before any file runs (files running side by side must not
// each rebuild it).
export default async function setup(project: TestProject) {
  await ensureViewerBuilt();
  const redis = await startPrivateRedis({ name: 'test-redis' });
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
