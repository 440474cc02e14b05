// The store as tests open it: on the suite's Redis under a fresh prefix unless told otherwise,
// ready before it is handed over. `openTestStore` for a store a file keeps (beforeAll, a helper's
// own), the `testStore` fixture for one store a test, closed after it.
import { inject, test } from 'vitest';
import { openStore, redisReady, type OpenStoreOptions, type Store } from '../../store/index.ts';
import { testPrefix } from './api.ts';

/** A ready store: the suite's Redis, a fresh prefix and the manual clock unless `options` say otherwise. */
export async function openTestStore(options: Partial<OpenStoreOptions> & { name: string }): Promise<Store> {
  const store = openStore({
    redisUrl: inject('redisUrl'),
    prefix: testPrefix(),
    clock: 'manual',
    ...options,
  });
  try {
    await redisReady(store.ctx.redis);
  } catch (err) {
    // A store that never became ready still holds a connection that retries: close it.
    await store.close();
    throw err;
  }
  return store;
}

/** `it` with `testStore`: a ready store of its own for each test (manual clock), closed after it. */
export const storeTest = test.extend<{ testStore: Store }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
  testStore: async ({}, use) => {
    const store = await openTestStore({ name: 'test' });
    await use(store);
    await store.close();
  },
});
