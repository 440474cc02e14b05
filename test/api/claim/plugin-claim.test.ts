// Spec 4.4 (POST /plugin/v1/claim): every row, over real HTTP, with codes from the store (as the
// chat bot issues them). No probe runs on this path; other client IPs come from X-Forwarded-For.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeA2sServer } from '../../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import {
  from,
  keysOf,
  pluginClaim,
  registrationHash,
  report,
  selfClaim,
  UUID,
} from '../../support/claims.ts';
import { advanceClock, MINUTE, setClock } from '../../support/clock.ts';
import { send } from '../../support/http.ts';

const T0 = '2026-03-01T08:00:00.000Z';
const HOME = '198.51.100.20'; // documentation range: never probed, and not probed on this path
const ELSEWHERE = '198.51.100.21';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '300' });
  await setClock(api, T0);
});
afterEach(async () => {
  await api.close();
});

const issue = (expected: { ip?: string; port?: number } = {}) =>
  api.store.issueClaimCode(expected).then((c) => c.code);

describe('200 verified', () => {
  it('a code without an address registers the request IP and the body port', async () => {
    const code = await issue();
    const res = await pluginClaim(
      api,
      { code, port: 7777, pluginVersion: '1.2.0', gameVersion: '14.1', labApiVersion: '1.0.2' },
      from(HOME),
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['credential', 'issuedAt', 'serverId', 'status']);
    expect(res.body).toMatchObject({ status: 'verified', issuedAt: T0 });
    // It carries the credential, shown this once: no cache may keep it.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.serverId).toMatch(UUID);
    expect(res.body.credential).toMatch(/^sbk_/);
    expect(await api.store.getRegistration(res.body.serverId)).toMatchObject({
      kind: 'plugin',
      ip: HOME,
      port: 7777,
      revokedAt: null,
    });
    expect(await registrationHash(api, res.body.serverId)).toMatchObject({
      pluginVersion: '1.2.0',
      gameVersion: '14.1',
      labApiVersion: '1.0.2',
    });
    // Bound to the IP it registered from.
    expect((await report(api, res.body.credential, { headers: from(HOME) })).status).toBe(200);
    expect((await report(api, res.body.credential, { headers: from(ELSEWHERE) })).status).toBe(401);
  });

  it('revokes an earlier registration at the same IP:port (self-issued and plugin alike), not others', async () => {
    const server = await startFakeA2sServer({ mode: 'direct' });
    try {
      const self = await selfClaim(api, { port: server.port });
      expect(self.status).toBe(200);
      const first = await pluginClaim(api, { code: await issue(), port: server.port });
      expect(first.status).toBe(200);
      expect((await report(api, self.body.credential)).status).toBe(401);

      const elsewhere = await pluginClaim(api, { code: await issue(), port: server.port + 1 });
      const second = await pluginClaim(api, { code: await issue(), port: server.port });
      expect(second.status).toBe(200);
      expect((await report(api, first.body.credential)).status).toBe(401);
      expect((await report(api, second.body.credential)).status).toBe(200);
      expect((await report(api, elsewhere.body.credential)).status).toBe(200);
      expect((await api.store.getRegistration(self.body.serverId))?.revokedAt).toBe(T0);
    } finally {
      await server.close();
    }
  });

  it('an old-style code with the expected IP:port registers when the request matches', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    const res = await pluginClaim(api, { code, port: 7777 }, from(HOME));
    expect(res.status).toBe(200);
    expect(await api.store.getRegistration(res.body.serverId)).toMatchObject({ ip: HOME, port: 7777 });
    expect(await api.store.listReviews()).toEqual([]);
  });

  it('two claims with one code at once: one registration, the other invalid code', async () => {
    const code = await issue();
    const results = await Promise.all([
      pluginClaim(api, { code, port: 7777 }, from(HOME)),
      pluginClaim(api, { code, port: 7778 }, from(ELSEWHERE)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await api.store.listRegistrations()).length).toBe(1);
  });
});

describe('202 review of an old-style code', () => {
  it.each([
    ['ip_mismatch', ELSEWHERE, 7777],
    ['port_mismatch', HOME, 7778],
    ['ip_mismatch', ELSEWHERE, 7778], // both differ: the IP is named
  ] as const)('%s (from %s:%d)', async (reason, ip, port) => {
    const code = await issue({ ip: HOME, port: 7777 });
    const res = await pluginClaim(api, { code, port, pluginVersion: '1.1.0' }, from(ip));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['reason', 'retryAfterSeconds', 'status']);
    expect(res.body).toMatchObject({ status: 'review', reason });
    expect(Number.isInteger(res.body.retryAfterSeconds)).toBe(true);
    expect(res.body.retryAfterSeconds).toBeGreaterThan(0);

    const [review] = await api.store.listReviews();
    expect(review).toMatchObject({
      code,
      status: 'pending',
      expectedAddress: `${HOME}:7777`,
      actualAddress: `${ip}:${port}`,
      reason,
      pluginVersion: '1.1.0',
      createdAt: T0,
      decidedBy: null,
    });
    expect(await api.store.listRegistrations()).toEqual([]);
  });

  it('resending before a decision answers 202 again and keeps ONE review request', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    for (let i = 0; i < 3; i++) {
      const res = await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE));
      expect(res.status).toBe(202);
      expect(res.body.reason).toBe('ip_mismatch');
      await advanceClock(api, res.body.retryAfterSeconds! * 1000);
    }
    // Even from yet another address: the one review stands.
    expect((await pluginClaim(api, { code, port: 7790 }, from('198.51.100.99'))).status).toBe(202);
    expect(await api.store.listReviews()).toHaveLength(1);
    expect(await keysOf(api, 'review:*')).toHaveLength(1);
    expect(await api.store.ctx.redis.llen(`${api.config.REDIS_PREFIX}reviews:notify`)).toBe(1);
  });

  it('after approval the same code, resent from the reviewed address, registers there once', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    expect((await pluginClaim(api, { code, port: 7778 }, from(ELSEWHERE))).status).toBe(202);
    const [review] = await api.store.listReviews();
    expect(
      await api.store.decideReview({ id: review!.id, decision: 'approved', moderator: 'mod-a' }),
    ).toEqual({
      outcome: 'decided',
      decision: 'approved',
      moderator: 'mod-a',
    });
    expect(await api.store.listReviews()).toEqual([]);
    expect((await api.store.getReview(review!.id))?.decidedBy).toBe('mod-a');

    const res = await pluginClaim(api, { code, port: 7778 }, from(ELSEWHERE));
    expect(res.status).toBe(200);
    expect(await api.store.getRegistration(res.body.serverId)).toMatchObject({ ip: ELSEWHERE, port: 7778 });
    expect((await report(api, res.body.credential, { headers: from(ELSEWHERE), port: 7778 })).status).toBe(
      200,
    );
    // Used now.
    expect((await pluginClaim(api, { code, port: 7778 }, from(ELSEWHERE))).status).toBe(401);
  });

  it('used from its expected address while under review: registers there and supersedes the review', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    expect((await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE))).status).toBe(202);
    const [review] = await api.store.listReviews();

    const res = await pluginClaim(api, { code, port: 7777 }, from(HOME));
    expect(res.status).toBe(200);
    expect(await api.store.getRegistration(res.body.serverId)).toMatchObject({ ip: HOME, port: 7777 });
    expect(await api.store.listReviews()).toEqual([]);
    expect(await api.store.getReview(review!.id)).toMatchObject({ status: 'superseded', decidedBy: null });
    // A second notice for the bot, to update the review's message.
    expect(await api.store.ctx.redis.lrange(`${api.config.REDIS_PREFIX}reviews:notify`, 0, -1)).toEqual([
      review!.id,
      review!.id,
    ]);
    // Nothing is left to decide, and the resend from the reviewed address stays refused.
    expect(
      await api.store.decideReview({ id: review!.id, decision: 'approved', moderator: 'mod-c' }),
    ).toEqual({
      outcome: 'already',
      decision: 'superseded',
      moderator: '',
    });
    expect((await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE))).status).toBe(401);
    expect(await api.store.listRegistrations()).toHaveLength(1);
  });

  it('after rejection: 403 claim rejected, and again on every resend', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    expect((await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE))).status).toBe(202);
    const [review] = await api.store.listReviews();
    await api.store.decideReview({ id: review!.id, decision: 'rejected', moderator: 'mod-b' });
    for (const ip of [ELSEWHERE, HOME]) {
      const res = await pluginClaim(api, { code, port: 7777 }, from(ip));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'claim rejected' });
    }
    expect(await api.store.listRegistrations()).toEqual([]);
  });

  it('a review pending past the 30 minutes still answers 202, and the later approval still registers', async () => {
    const code = await issue({ ip: HOME, port: 7777 });
    expect((await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE))).status).toBe(202);
    await advanceClock(api, 45 * MINUTE);
    const waiting = await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE));
    expect(waiting.status).toBe(202);
    expect(waiting.body.reason).toBe('ip_mismatch');
    const [review] = await api.store.listReviews();
    await api.store.decideReview({ id: review!.id, decision: 'approved', moderator: 'late mod' });
    await advanceClock(api, 30 * MINUTE);
    expect((await pluginClaim(api, { code, port: 7777 }, from(ELSEWHERE))).status).toBe(200);
  });
});

describe('401 invalid code', () => {
  it('unknown codes, well-formed or not', async () => {
    for (const code of ['ABCDE-FGHJK', 'hello', 'x'.repeat(128), 'U'.repeat(10)]) {
      const res = await pluginClaim(api, { code, port: 7777 });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid code' });
    }
  });

  it('expired: valid for 30 minutes exactly', async () => {
    const fresh = await issue();
    const stale = await issue();
    const later = await issue();
    await advanceClock(api, 30 * MINUTE - 1);
    expect((await pluginClaim(api, { code: fresh, port: 7777 })).status).toBe(200);
    await advanceClock(api, 1);
    expect((await pluginClaim(api, { code: stale, port: 7778 })).body).toEqual({ error: 'invalid code' });
    await advanceClock(api, 1 * MINUTE);
    expect((await pluginClaim(api, { code: later, port: 7779 })).status).toBe(401);
  });

  it('used: a code registers once, even from the same address', async () => {
    const code = await issue();
    expect((await pluginClaim(api, { code, port: 7777 })).status).toBe(200);
    expect((await pluginClaim(api, { code, port: 7777 })).body).toEqual({ error: 'invalid code' });
    expect((await pluginClaim(api, { code, port: 7778 }, from(HOME))).status).toBe(401);
  });

  it('cancelled (store.cancelClaimCode), also one under review', async () => {
    const code = await issue();
    expect(await api.store.cancelClaimCode(code)).toBe(true);
    expect(await api.store.cancelClaimCode(code)).toBe(false);
    expect((await pluginClaim(api, { code, port: 7777 })).body).toEqual({ error: 'invalid code' });

    const reviewed = await issue({ ip: HOME, port: 7777 });
    expect((await pluginClaim(api, { code: reviewed, port: 7777 }, from(ELSEWHERE))).status).toBe(202);
    expect(await api.store.cancelClaimCode(reviewed.toLowerCase())).toBe(true);
    expect((await pluginClaim(api, { code: reviewed, port: 7777 }, from(ELSEWHERE))).status).toBe(401);

    const used = await issue();
    expect((await pluginClaim(api, { code: used, port: 7780 })).status).toBe(200);
    expect(await api.store.cancelClaimCode(used)).toBe(false);
  });
});

describe('forgiving code input', () => {
  /** A code whose random part holds both a 0 and a 1, so O/I/L spellings are really tested. */
  async function codeWithZeroAndOne(): Promise<string> {
    for (;;) {
      const code = await issue();
      if (code.includes('0') && code.includes('1')) return code;
    }
  }
  const variants: [string, (code: string) => string][] = [
    ['lower case', (c) => c.toLowerCase()],
    ['no hyphen', (c) => c.replace('-', '')],
    ['spaces instead of the hyphen', (c) => ` ${c.replace('-', ' ')} `],
    ['O for 0, I for 1', (c) => c.replace(/0/g, 'O').replace(/1/g, 'I')],
    [
      'o for 0, l for 1, lower case, no hyphen',
      (c) => c.replace('-', '').replace(/0/g, 'o').replace(/1/g, 'l').toLowerCase(),
    ],
  ];
  it.each(variants)('%s', async (_name, spell) => {
    const code = await codeWithZeroAndOne();
    const typed = spell(code);
    expect(typed).not.toBe(code);
    expect((await pluginClaim(api, { code: typed, port: 7777 })).status).toBe(200);
  });
});

describe('426 plugin_outdated', () => {
  it('below the minimum: 426 with minimum and downloadUrl; the code is not used up', async () => {
    await api.store.saveLatestRelease({ latest: '1.4.0', downloadUrl: 'https://example.org/releases/1.4.0' });
    await api.store.setMinimumVersion('1.2.0');
    const code = await issue();
    for (const pluginVersion of ['1.1.9', '1.2.0-beta', 'garbage']) {
      const res = await pluginClaim(api, { code, port: 7777, pluginVersion });
      expect(res.status).toBe(426);
      expect(res.body).toEqual({
        error: 'plugin_outdated',
        minimum: '1.2.0',
        downloadUrl: 'https://example.org/releases/1.4.0',
      });
    }
    expect((await pluginClaim(api, { code, port: 7777, pluginVersion: '1.2.0' })).status).toBe(200);
  });

  it('downloadUrl is still a string when the release host is unknown; no minimum, no 426', async () => {
    await api.store.setMinimumVersion('2.0.0');
    const res = await pluginClaim(api, { code: await issue(), port: 7777, pluginVersion: '1.9.9' });
    expect(res.status).toBe(426);
    expect(typeof res.body.downloadUrl).toBe('string');
    await api.store.clearMinimumVersion();
    expect((await pluginClaim(api, { code: await issue(), port: 7777, pluginVersion: '0.0.1' })).status).toBe(
      200,
    );
  });
});

describe('429 rate limited: 10 per minute per IP', () => {
  it('the 11th request in a minute is 429 with Retry-After; other IPs are not affected', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await pluginClaim(api, { code: 'ZZZZZ-ZZZZZ', port: 7777 }, from(HOME))).status).toBe(401);
    }
    const code = await issue();
    const limited = await pluginClaim(api, { code, port: 7777 }, from(HOME));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate limited' });
    expect(limited.headers.get('retry-after')).toBe('60');
    await advanceClock(api, 20_000);
    expect((await pluginClaim(api, { code, port: 7777 }, from(HOME))).headers.get('retry-after')).toBe('40');

    expect((await pluginClaim(api, { code: await issue(), port: 7777 }, from(ELSEWHERE))).status).toBe(200);
    await advanceClock(api, 40_000);
    // The refused requests did not use the code.
    expect((await pluginClaim(api, { code, port: 7777 }, from(HOME))).status).toBe(200);
  });
});

describe('400 invalid request, naming the field that failed', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['code missing', { port: 7777 }, 'code'],
    ['empty code', { code: '', port: 7777 }, 'code'],
    ['code of 129 characters', { code: 'A'.repeat(129), port: 7777 }, 'code'],
    ['code as a number', { code: 1234567890, port: 7777 }, 'code'],
    ['port missing', { code: 'CODE' }, 'port'],
    ['port 0', { code: 'CODE', port: 0 }, 'port'],
    ['port 65536', { code: 'CODE', port: 65536 }, 'port'],
    ['port as a string', { code: 'CODE', port: '7777' }, 'port'],
    [
      'pluginVersion of 33 characters',
      { code: 'CODE', port: 7777, pluginVersion: '1'.repeat(33) },
      'pluginVersion',
    ],
    ['empty gameVersion', { code: 'CODE', port: 7777, gameVersion: '' }, 'gameVersion'],
    ['labApiVersion not a string', { code: 'CODE', port: 7777, labApiVersion: 1 }, 'labApiVersion'],
    ['a JSON array', ['CODE', 7777], undefined],
  ];
  it.each(cases)('%s; the code stays usable', async (_name, body, field) => {
    const code = await issue();
    const withCode = JSON.parse(JSON.stringify(body).replace('"CODE"', JSON.stringify(code))) as unknown;
    const res = await pluginClaim(api, withCode);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      field === undefined ? { error: 'invalid request' } : { error: 'invalid request', field },
    );
    expect((await pluginClaim(api, { code, port: 7777 })).status).toBe(200);
  });

  it('malformed JSON and non-JSON bodies', async () => {
    const url = `${api.base}/plugin/v1/claim`;
    const json = { 'content-type': 'application/json' };
    for (const [init, field] of [
      [{ raw: '{"code":"ABCDE-FGHJK","port":', headers: json }, undefined],
      [
        {
          raw: 'code=ABCDE-FGHJK&port=7777',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        undefined,
      ],
      // An empty JSON body is `{}`, as body-parser reads it: its first field is missing.
      [{ raw: '', headers: json }, 'code'],
    ] as const) {
      const res = await send(url, { method: 'POST', ...init });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        field === undefined ? { error: 'invalid request' } : { error: 'invalid request', field },
      );
    }
  });
});
