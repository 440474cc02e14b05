import type { TestProject } from 'vitest/node';
import { ensureViewerBuilt } from './support/e2e-stack.ts';
import { buildEntryBundles } from './support/entry-bundles.ts';
import { STRIPS_TYPES } from './support/node-args.ts';
import { startPrivateRedis } from './support/private-redis.ts';

// One throwaway redis-server for each project of the run (each suite works under its own key
// prefix), and the viewer built once, before any file runs (files running side by side must not
// each rebuild it). On a Node without type stripping, the bundles of the entry points the tests
// start (entry-bundles.ts), rebuilt when watch mode runs the tests again after a change.
export default async function setup(project: TestProject) {
  await ensureViewerBuilt();
  if (!STRIPS_TYPES) {
    await buildEntryBundles();
    project.onTestsRerun(() => buildEntryBundles());
  }
  const redis = await startPrivateRedis({ name: 'test-redis' });
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
