import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listServers, PAGE_SIZE } from '../../bot/commands/servers.ts';
import { revoke } from '../../bot/commands/revoke.ts';
import { CONTENT_MAX } from '../../bot/command.ts';
import { CLI_ACTOR, type Store } from '../../store/index.ts';
import { openTestStore } from '../support/test-store.ts';

// The operations behind the commands take plain inputs and return the reply, without Discord.

let store: Store;
beforeAll(async () => {
  store = await openTestStore({ clock: 'system', name: 'test-ops' });
});
afterAll(() => store?.close());

describe('operations', () => {
  it('listServers says when there is nothing, and pages a long list, each page within one message', async () => {
    expect((await listServers(store)).content).toBe('No live registrations.');
    // The longest lines there are: a label of 64 characters, an owner of 64.
    for (let i = 0; i < 40; i++)
      await store.issueHttpKey({ label: `${i} ${'l'.repeat(64)}`, owner: `${i} ${'o'.repeat(64)}` });

    const pages = await Promise.all([0, 1, 4].map((page) => listServers(store, { page })));
    for (const [n, { content }] of [1, 2, 5].map((n, i) => [n, pages[i]!] as const)) {
      expect(content.length).toBeLessThanOrEqual(CONTENT_MAX);
      expect(content.split('\n')[0]).toBe(`40 live registrations, oldest first (page ${n} of 5):`);
      expect(content.split('\n')).toHaveLength(1 + PAGE_SIZE);
    }
    const buttons = (page: number) =>
      pages[page]!.components![0]!.components.map((b) => {
        const button = b as { label: string; disabled?: boolean };
        return [button.label, button.disabled];
      });
    expect(buttons(0)).toEqual([
      ['‹ Previous', true],
      ['Next ›', false],
    ]);
    expect(buttons(2)).toEqual([
      ['‹ Previous', false],
      ['Next ›', true],
    ]);
  });

  it('revoke accepts a server id in any case', async () => {
    const key = await store.issueHttpKey();
    expect(
      (await revoke(store, { serverId: ` ${key.serverId.toUpperCase()} `, actor: CLI_ACTOR })).content,
    ).toContain('Revoked');
    expect(await store.authenticate(key.credential)).toBeNull();
  });
});
