import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listServers } from '../../bot/commands/servers.ts';
import { revoke } from '../../bot/commands/revoke.ts';
import { CONTENT_MAX } from '../../bot/command.ts';
import { openStore, redisReady, type Store } from '../../store/index.ts';
import { testPrefix } from '../support/api.ts';

// The operations behind the commands take plain inputs and return the reply, without Discord.

let store: Store;
beforeAll(async () => {
  store = openStore({
    redisUrl: inject('redisUrl'),
    prefix: testPrefix(),
    clock: 'system',
    name: 'test-ops',
  });
  await redisReady(store.ctx.redis);
});
afterAll(() => store?.close());

describe('operations', () => {
  it('listServers says when there is nothing, and keeps a long list within one message', async () => {
    expect((await listServers(store)).content).toBe('No live registrations.');
    for (let i = 0; i < 40; i++) await store.issueHttpKey({ label: `tool number ${i} `.repeat(4) });

    const { content } = await listServers(store);
    expect(content.length).toBeLessThanOrEqual(CONTENT_MAX);
    expect(content.split('\n')[0]).toBe('40 live registrations, oldest first:');
    expect(content).toMatch(/… and \d+ more; `npm run --silent admin -- servers list` shows all\.$/);
  });

  it('revoke accepts a server id in any case', async () => {
    const key = await store.issueHttpKey();
    expect((await revoke(store, { serverId: ` ${key.serverId.toUpperCase()} ` })).content).toContain(
      'Revoked',
    );
    expect(await store.authenticate(key.credential)).toBeNull();
  });
});
