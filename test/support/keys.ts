import type { TestApi } from './api.ts';
import { send } from './http.ts';
import { startFakeA2sServer } from './fakes/a2s-server.ts';
import type { CredentialKind } from '../../store/index.ts';

export interface TestKey {
  kind: CredentialKind;
  serverId: string;
  credential: string;
}

/**
 * A live key of `kind`: HTTP keys from the store (as the CLI and bot issue them), self-claimed
 * game-server keys through the real claim route and probe against a fake A2S server on loopback.
 * A self-claim spends the IP's 5-minute interval, so the clock moves past it afterwards.
 */
export async function newKey(api: TestApi, kind: 'self' | 'http'): Promise<TestKey> {
  if (kind === 'http') return { kind, ...(await api.store.issueHttpKey()) };
  const fake = await startFakeA2sServer({ mode: 'direct' });
  try {
    const res = await send<{ serverId: string; credential: string }>(`${api.base}/v1/servers/claim`, {
      json: { port: fake.port, clientName: 'test server' },
    });
    if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${JSON.stringify(res.body)}`);
    await send(`${api.url}/__test__/clock`, { json: { advanceMs: 5 * 60_000 } });
    return { kind, serverId: res.body.serverId, credential: res.body.credential };
  } finally {
    await fake.close();
  }
}
