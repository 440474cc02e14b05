import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { hotRoutes } from '../../../api/front-door.ts';
import { ROUTES } from '../../../api/routes/table.ts';
import { generateMap, type FacilityMap } from '../../../generator/index.ts';
import { adminEnv, runAdmin } from '../../support/admin-cli.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { runTs } from '../../support/child.ts';
import { advanceClock, setClock } from '../../support/clock.ts';
import { startTestWorker, type TestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import {
  closeWindow,
  failAttemptByHand,
  generate,
  jobHash,
  openWindow,
  waitingSeeds,
  waitReady,
} from '../../support/read-api.ts';
import { DUMP_FILE, DUMP_SEED, readReferenceJson } from '../../generator/reference-files.ts';

// GET /maps/{seed} (spec 4.7) over real HTTP with a real generator worker: every row of the
// table, and the map answer itself (precompressed bodies, strong ETag, revalidation).

const T0 = '2026-03-01T08:00:00.000Z';
/** The public map as JSON carries it (undefined fields dropped). */
const publicMap = (seed: number) => JSON.parse(JSON.stringify(generateMap(seed))) as FacilityMap;

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.config.REDIS_PREFIX);
  await setClock(api, T0);
});
afterAll(async () => {
  await worker.stop();
  await api.close();
});

const maps = (seed: number | string, ip: string, headers: Record<string, string> = {}) =>
  get(`${api.base}/maps/${seed}`, { ip, headers });

describe('GET /maps/{seed} (4.7)', () => {
  it('answers 202 pending first, then 200 with the map `npm run generate` prints', async () => {
    const first = await maps(DUMP_SEED, '198.51.100.1');
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ status: 'pending', job: 'queued' });

    await waitReady(api, DUMP_SEED);
    const ready = await maps(DUMP_SEED, '198.51.100.1');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('content-type')).toMatch(/^application\/json/);

    const cli = await runTs('generator/cli.ts', [String(DUMP_SEED)], {}, 20_000);
    expect(cli.code).toBe(0);
    expect(ready.body).toEqual(JSON.parse(cli.stdout));
    expect(ready.body).toEqual(publicMap(DUMP_SEED));
  });

  it(`serves for ${DUMP_SEED} the rooms of the reference dump, room for room`, async () => {
    await generate(api, DUMP_SEED);
    const res = await maps(DUMP_SEED, '198.51.100.2');
    expect(res.status).toBe(200);
    const served = res.body as unknown as FacilityMap;
    const dump = readReferenceJson<FacilityMap>(DUMP_FILE);
    const room = (r: FacilityMap['rooms'][number]) =>
      JSON.stringify([r.name, r.variant, r.zone, r.shape, r.x, r.y, r.z, r.rotY]);
    expect(served.rooms).toHaveLength(dump.rooms.length);
    expect(served.rooms.map(room).sort()).toEqual(dump.rooms.map(room).sort());
  });

  it('serves exactly what the generator makes for seeds at both ends of the range', async () => {
    await generate(api, 1, 2147483647, 424242);
    for (const seed of [1, 2147483647, 424242]) {
      const res = await maps(seed, '198.51.100.3');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(publicMap(seed));
    }
  });

  it.each(['01', '1e3', '-1', '0', '2147483648', 'abc', '1.5', ' 1', '+1', '0x10', '99999999999'])(
    'answers 400 invalid seed for %j, on maps and jobs, and queues nothing',
    async (text) => {
      const before = await waitingSeeds(api);
      const path = encodeURIComponent(text);
      const res = await maps(path, '198.51.100.4');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid seed' });
      const job = await get(`${api.base}/jobs/${path}`);
      expect(job.status).toBe(400);
      expect(job.body).toEqual({ error: 'invalid seed' });
      expect(await waitingSeeds(api)).toEqual(before);
    },
  );

  it('answers 403 blocked with blockedUntil while a window is open, 200 again once the clock passes it', async () => {
    const seed = 515151;
    await generate(api, seed);
    expect((await maps(seed, '198.51.100.5')).status).toBe(200);

    const window = await openWindow(api, seed);
    const blocked = await maps(seed, '198.51.100.5');
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: 'blocked', blockedUntil: window.blockedUntil });
    expect(blocked.headers.get('etag')).toBeNull();

    // Still blocked 1 ms before the end; shown again at blockedUntil.
    await setClock(api, new Date(Date.parse(window.blockedUntil) - 1).toISOString());
    expect((await maps(seed, '198.51.100.5')).status).toBe(403);
    await advanceClock(api, 1);
    const back = await maps(seed, '198.51.100.5');
    expect(back.status).toBe(200);
    expect(back.body).toEqual(publicMap(seed));
  });

  it('answers 403 blocked without blockedUntil for the permanent blocklist (store and CLI)', async () => {
    const [byStore, byCli] = [626262, 636363];
    await generate(api, byStore);
    await api.store.addToBlocklist(byStore);
    const viaCli = await runAdmin(['blocklist', 'add', String(byCli)], adminEnv(api.config.REDIS_PREFIX));
    expect(viaCli.ok()).toEqual({ seed: byCli, added: true });

    const refusedBefore = await api.store.ctx.redis.hget(
      `${api.config.REDIS_PREFIX}stats`,
      'viewAttemptsBlocked',
    );
    for (const seed of [byStore, byCli]) {
      for (const path of ['maps', 'jobs']) {
        const res = await get(`${api.base}/${path}/${seed}`, { ip: '198.51.100.6' });
        expect(res.status, `${path}/${seed}`).toBe(403);
        expect(res.body).toEqual({ error: 'blocked' });
      }
    }
    // The blocklist is no window: its refusals are not views refused while a window was open.
    expect(await api.store.ctx.redis.hget(`${api.config.REDIS_PREFIX}stats`, 'viewAttemptsBlocked')).toBe(
      refusedBefore,
    );
    // Never requested while listed: never queued.
    expect(await jobHash(api, byCli)).toEqual({});
    expect(await waitingSeeds(api)).not.toContain(byCli);

    await api.store.removeFromBlocklist(byStore);
    expect((await maps(byStore, '198.51.100.6')).status).toBe(200);
  });

  it('answers 429 past 20 distinct uncached seeds a minute per IP, with Retry-After; generated seeds are never limited', async () => {
    const ip = '203.0.113.20';
    const generated = 717171;
    await generate(api, generated);

    for (let i = 1; i <= 20; i++) {
      const res = await maps(7_000_000 + i, ip);
      expect(res.status, `uncached seed #${i}`).toBe(202);
      // Polling a seed again (4.7: "retry shortly") does not count as another seed: were it
      // counted, the limit would be hit at the 11th seed (202 pending, or 200 once generated).
      expect([200, 202]).toContain((await maps(7_000_000 + i, ip)).status);
    }
    const limited = await maps(7_000_021, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate limited' });
    // The manual clock stands still: the whole minute is left.
    expect(limited.headers.get('retry-after')).toBe('60');
    // Requests past the limit still count: retrying keeps answering 429, for any new seed too.
    expect((await maps(7_000_021, ip)).status).toBe(429);
    expect((await maps(7_000_023, ip)).status).toBe(429);
    // The limited seed was not queued.
    expect(await jobHash(api, 7_000_021)).toEqual({});
    // Another IP is not limited by this one.
    expect((await maps(7_000_022, '203.0.113.21')).status).toBe(202);

    // A generated seed is never limited, however often.
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await maps(generated, ip)).status);
    expect(statuses).toEqual(Array(50).fill(200));
    // Nor is one of the 20 once it is generated.
    await waitReady(api, 7_000_001);
    expect((await maps(7_000_001, ip)).status).toBe(200);

    await advanceClock(api, 60_000);
    expect((await maps(7_000_021, ip)).status).toBe(202);
  });
});

describe('GET /maps/{seed} without a worker: 503 busy (4.7)', () => {
  let lone: TestApi;
  beforeAll(async () => {
    lone = await startTestApi({ QUEUE_MAX: '2' });
    await setClock(lone, T0);
  });
  afterAll(async () => {
    await lone.close();
  });
  const lonely = (seed: number) => get(`${lone.base}/maps/${seed}`, { ip: '198.51.100.7' });
  const BUSY = { status: 'busy', error: 'map unavailable' };

  it('when generation failed: the job is `error` and the map answers 503', async () => {
    const seed = 818181;
    expect((await lonely(seed)).status).toBe(202);
    expect(await failAttemptByHand(lone, seed, 'generator threw: boom')).toBe('requeued');
    expect(await failAttemptByHand(lone, seed, 'generator threw: boom')).toBe('requeued');
    expect(await failAttemptByHand(lone, seed, 'generator threw: boom')).toBe('error');

    const res = await lonely(seed);
    expect(res.status).toBe(503);
    expect(res.body).toEqual(BUSY);
    const job = await get(`${lone.base}/jobs/${seed}`);
    expect(job.body).toEqual({ seed, status: 'error', error: 'generator threw: boom' });
  });

  it('when the queue is full (QUEUE_MAX=2); queued seeds stay 202, and it clears once a worker drains it', async () => {
    expect((await lonely(820001)).status).toBe(202);
    expect((await lonely(820002)).status).toBe(202);
    const full = await lonely(820003);
    expect(full.status).toBe(503);
    expect(full.body).toEqual(BUSY);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    // Seeds already queued are not refused.
    expect((await lonely(820001)).status).toBe(202);
    expect(await waitingSeeds(lone)).toEqual([820002, 820001]);

    const drain = await startTestWorker(lone.config.REDIS_PREFIX);
    try {
      await waitReady(lone, 820002);
      expect((await lonely(820003)).status).toBe(202);
      await waitReady(lone, 820003);
      expect((await lonely(820003)).status).toBe(200);
    } finally {
      await drain.stop();
    }
  });
});

describe('the map answer', () => {
  const seed = 31337;
  let identity: Awaited<ReturnType<typeof maps>>;
  beforeAll(async () => {
    await generate(api, seed);
    identity = await maps(seed, '198.51.100.8');
  });

  it('is identity JSON when no coding is accepted', async () => {
    expect(identity.status).toBe(200);
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.body).toEqual(publicMap(seed));
    for (const accept of ['identity', 'deflate', 'compress, deflate;q=0.5', 'br;q=0, gzip;q=0']) {
      const res = await maps(seed, '198.51.100.8', { 'accept-encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(res.text).toBe(identity.text);
    }
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br', 'br'],
    ['gzip, deflate, br', null],
    ['*', null],
  ])('is precompressed for Accept-Encoding %j', async (accept, expected) => {
    const res = await maps(seed, '198.51.100.8', { 'accept-encoding': accept });
    expect(res.status).toBe(200);
    const coding = res.headers.get('content-encoding');
    if (expected) expect(coding).toBe(expected);
    else expect(['br', 'gzip']).toContain(coding);
    // Really compressed bytes, decoding to the identity body byte for byte.
    expect(res.raw.length).toBeLessThan(identity.raw.length / 2);
    expect(res.text).toBe(identity.text);
  });

  it('negotiates every Accept-Encoding by its own q-values, however many distinct values clients send', async () => {
    // More distinct values than the process keeps negotiated answers for; each twice, so both a
    // fresh negotiation and a remembered one are checked against the expected coding.
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i <= 300; i++) {
        const q = (i % 999) / 1000;
        const [accept, expected] =
          i % 3 === 0
            ? [`gzip;q=${q}, br;q=0`, 'gzip']
            : i % 3 === 1
              ? [`br;q=${q}, gzip;q=0`, 'br']
              : [`identity, br;q=0, gzip;q=0, x-${i}`, null];
        const res = await maps(seed, '198.51.100.8', { 'accept-encoding': accept });
        expect(res.headers.get('content-encoding'), accept).toBe(expected);
        expect(res.text).toBe(identity.text);
      }
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const accept of ['identity', 'br']) {
      const full = await maps(seed, '198.51.100.8', { 'accept-encoding': accept });
      const head = await get(`${api.base}/maps/${seed}`, {
        ip: '198.51.100.8',
        headers: { 'accept-encoding': accept },
        method: 'HEAD',
      });
      expect(head.status).toBe(200);
      expect(head.raw.length).toBe(0);
      for (const name of [
        'etag',
        'content-type',
        'content-encoding',
        'content-length',
        'cache-control',
        'vary',
      ]) {
        expect(head.headers.get(name), `${accept} ${name}`).toBe(full.headers.get(name));
      }
      expect(Number(head.headers.get('content-length'))).toBe(full.raw.length);
    }
  });

  it('carries a strong ETag, no-cache and Vary: Accept-Encoding; If-None-Match gives 304 without a body', async () => {
    const etag = identity.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(identity.headers.get('cache-control')).toMatch(/(^|,\s*)no-cache(\s*,|$)/);
    expect(identity.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');

    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await maps(seed, '198.51.100.8', { 'if-none-match': inm });
      expect(res.status, inm).toBe(304);
      expect(res.raw.length).toBe(0);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toContain('no-cache');
    }
    const changed = await maps(seed, '198.51.100.8', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe(identity.text);
  });

  it('has a distinct strong ETag per content coding (RFC 9110 8.8.3.3), each revalidating its own bytes', async () => {
    const tags = new Map<string, string>();
    for (const accept of ['identity', 'br', 'gzip']) {
      const res = await maps(seed, '198.51.100.8', { 'accept-encoding': accept });
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
      tags.set(accept, res.headers.get('etag')!);
      const again = await maps(seed, '198.51.100.8', {
        'accept-encoding': accept,
        'if-none-match': res.headers.get('etag')!,
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    }
    expect(new Set(tags.values()).size).toBe(3);
    // A tag of the brotli bytes does not validate the gzip representation.
    const cross = await maps(seed, '198.51.100.8', {
      'accept-encoding': 'gzip',
      'if-none-match': tags.get('br')!,
    });
    expect(cross.status).toBe(200);
    expect(cross.headers.get('content-encoding')).toBe('gzip');
  });

  it('a seed whose window opens after it was served answers a revalidation with 403, never 304', async () => {
    const other = 41414;
    await generate(api, other);
    const served = await maps(other, '198.51.100.9', { 'accept-encoding': 'br' });
    expect(served.status).toBe(200);
    const etag = served.headers.get('etag')!;

    const window = await openWindow(api, other);
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await maps(other, '198.51.100.9', { 'if-none-match': etag, 'accept-encoding': accept });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'blocked', blockedUntil: window.blockedUntil });
      expect(res.headers.get('etag')).toBeNull();
      expect(res.headers.get('cache-control')).toContain('no-store');
    }
    await closeWindow(api, window);
    const res = await maps(other, '198.51.100.9', { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(res.status).toBe(304);
  });
});

describe('every spelling of the map path', () => {
  // The front door answers the plain path itself; express answers every other spelling it routes
  // to the same read (percent-encoded, a trailing slash, another case). Both must answer alike.
  const spellings = (seed: string) => [
    `/api/maps/${seed}`,
    `/api/maps/${[...seed].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
    `/api/maps/${seed}/`,
    `/API/Maps/${seed}`,
  ];
  /** The answer without what differs by request: its id and time. */
  const comparable = (res: Awaited<ReturnType<typeof get>>) => {
    const { date: _date, 'x-request-id': id, ...headers } = Object.fromEntries(res.headers);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    return { status: res.status, headers, body: createHash('sha256').update(res.raw).digest('hex') };
  };

  it('answers ready, blocked and malformed seeds, GET and HEAD, alike in every spelling', async () => {
    const ready = 60606;
    const blocked = 70707;
    await generate(api, ready, blocked);
    await openWindow(api, blocked);
    const cases: [string, Record<string, string>, string, number][] = [
      [String(ready), {}, 'GET', 200],
      [String(ready), { 'accept-encoding': 'br, gzip' }, 'GET', 200],
      [String(ready), { 'accept-encoding': 'gzip', 'x-forwarded-proto': 'https' }, 'HEAD', 200],
      [String(blocked), {}, 'GET', 403],
      ['12ab', {}, 'GET', 400],
      ['0', {}, 'HEAD', 400],
    ];
    for (const [seed, headers, method, status] of cases) {
      const answers = [];
      for (const path of spellings(seed)) {
        answers.push(comparable(await get(`${api.url}${path}`, { ip: '198.51.100.10', headers, method })));
      }
      expect(answers[0]!.status, `${method} ${seed}`).toBe(status);
      for (const answer of answers.slice(1)) expect(answer, `${method} ${seed}`).toEqual(answers[0]);
    }
  });

  it('is answered before express only in the plain spelling, GET or HEAD', () => {
    const hotRoute = hotRoutes(
      '/api',
      ROUTES.map((route) => ({ route })),
    );
    const read = (method: string, path: string) => {
      const route = hotRoute({ method } as IncomingMessage, path);
      return route?.compiled.route.id === 'readMap' ? path.slice(route.paramAt) : null;
    };
    expect(read('GET', '/api/maps/424242')).toBe('424242');
    expect(read('HEAD', '/api/maps/12ab')).toBe('12ab');
    for (const path of ['/api/maps/%34%32', '/api/maps/42/', '/API/Maps/42', '/api/maps/', '/api/maps']) {
      expect(read('GET', path), path).toBeNull();
    }
    expect(read('POST', '/api/maps/42')).toBeNull();
  });
});
