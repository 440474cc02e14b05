// Self-claim limits per IPv6 /56 (issue 22, finding 1): the 5-minute interval, the 3 live keys
// and the 10-per-minute probe limit are keyed like every other per-IP limit, so one network
// cannot mint keys address by address. Clients come from X-Forwarded-For through the trusted
// loopback proxy; no test address is loopback, so a stand-in probe answers: nothing is sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Probe, ProbeResult } from '../../../api/probe/index.ts';
import { FAKE_INFO } from '../../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { from, selfClaim } from '../../support/claims.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';

const T0 = '2026-03-01T08:00:00.000Z';
// Three addresses of one /56 (2001:db8:1:100::/56), and one of the next /56.
const NETWORK = ['2001:db8:1:100::1', '2001:db8:1:1ab:5::2', '2001:db8:1:1ff:ffff::9'];
const NEXT_NETWORK = '2001:db8:1:200::1';

const GAME_SERVER: ProbeResult = { ok: true, kind: 'a2s', info: FAKE_INFO };

let api: TestApi;
let answer: ProbeResult;
const probed: string[] = [];
const probe: Probe = async (ip, port) => {
  probed.push(`[${ip}]:${port}`);
  return answer;
};

beforeEach(async () => {
  answer = GAME_SERVER;
  probed.length = 0;
  api = await startTestApi({}, undefined, { probe });
  await setClock(api, T0);
});
afterEach(async () => {
  await api.close();
});

describe('self-claim limits per IPv6 /56', () => {
  it('one issue per /56 every 5 minutes: another address of the network waits, the next network does not', async () => {
    expect((await selfClaim(api, { port: 7777 }, from(NETWORK[0]!))).status).toBe(200);
    const again = await selfClaim(api, { port: 7777 }, from(NETWORK[1]!));
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ error: 'rate limited' });
    expect(again.headers.get('retry-after')).toBe('300');
    expect((await selfClaim(api, { port: 7777 }, from(NEXT_NETWORK))).status).toBe(200);
    expect(probed).toEqual([`[${NETWORK[0]}]:7777`, `[${NEXT_NETWORK}]:7777`]);
  });

  it('at most 3 live keys per /56, whichever of its addresses claimed them', async () => {
    for (const ip of NETWORK) {
      const res = await selfClaim(api, { port: 7777 }, from(ip));
      expect(res.status).toBe(200);
      // The registration keeps the exact address: the probe and the key's reports are for it.
      expect((await api.store.getRegistration(res.body.serverId))?.ip).toBe(ip);
      await advanceClock(api, 5 * MINUTE);
    }
    const fourth = await selfClaim(api, { port: 7777 }, from('2001:db8:1:1cc::4'));
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ error: 'too many credentials', live: 3, max: 3 });
    expect(probed).toHaveLength(3);
    expect((await selfClaim(api, { port: 7777 }, from(NEXT_NETWORK))).status).toBe(200);
  });

  it('the probe runs at most 10 times a minute per /56, spread over its addresses', async () => {
    answer = { ok: false, reason: 'timeout' };
    for (let i = 0; i < 10; i++) {
      const res = await selfClaim(api, { port: 7777 }, from(`2001:db8:1:1${i}0::${i + 1}`));
      expect(res.body).toEqual({ error: 'no game server' });
    }
    const eleventh = await selfClaim(api, { port: 7777 }, from('2001:db8:1:1ee::11'));
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ error: 'rate limited' });
    expect(eleventh.headers.get('retry-after')).toBe('60');
    expect(probed).toHaveLength(10);
    answer = GAME_SERVER;
    expect((await selfClaim(api, { port: 7777 }, from(NEXT_NETWORK))).status).toBe(200);
  });
});
