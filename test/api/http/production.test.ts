import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES as OPERATIONS } from '../../../api/routes/table.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { runTs } from '../../support/child.ts';
import { send } from '../../support/http.ts';

// README "What is protected, and how", admin and test-clock routes: with NODE_ENV=production no
// process starts on the manual clock, so POST /__test__/clock never exists there (its 404 is in
// test/api/test-clock.test.ts); every operator
// endpoint (the OpenAPI operations marked adminToken, and /metrics) answers 401 without the
// ADMIN_TOKEN, and always when none is configured.

const TOKEN = 'production-admin-token-0123456789';

describe('NODE_ENV=production with SEEDBLOCK_CLOCK=manual', () => {
  // Each entry point as `npm run …` runs it. Were the manual clock accepted, the API would serve
  // (and the worker wait for jobs) until runTs kills it, which fails the test.
  it.each([
    ['the API', 'api/main.ts', []],
    ['a generator worker', 'generator/main.ts', []],
    ['the operator CLI', 'scripts/admin.ts', ['servers', 'list']],
  ])('%s refuses to start, naming SEEDBLOCK_CLOCK', async (_name, script, args) => {
    const result = await runTs(
      script,
      args,
      {
        NODE_ENV: 'production',
        SEEDBLOCK_CLOCK: 'manual',
        HOST: '127.0.0.1',
        PORT: '0',
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: 'tprodclock:',
        LOG_LEVEL: 'silent',
      },
      10_000,
    );
    expect(result.signal).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('SEEDBLOCK_CLOCK');
  });
});

const ADMIN_OPERATIONS = OPERATIONS.filter((op) => op.auth === 'adminToken');

/** Every operator endpoint of `api`, called with the given Authorization header (or none). */
function callAll(api: TestApi, authorization?: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return Promise.all([
    send(`${api.url}/metrics`, { headers }),
    ...ADMIN_OPERATIONS.map((op) =>
      send(`${api.base}${op.path.replace(/\{[^}]+\}/g, '1')}`, {
        method: op.method.toUpperCase(),
        headers,
        ...(op.method === 'post' ? { json: { seed: 1 } } : {}),
      }),
    ),
  ]);
}

const WRONG = [
  undefined,
  'Bearer',
  'Bearer undefined',
  `Bearer ${TOKEN.slice(0, -1)}x`,
  `Bearer ${TOKEN}${TOKEN}`,
  `Bearer ${'t'.repeat(8_000)}`,
  `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`,
];

async function expectAllRefused(api: TestApi, authorizations: (string | undefined)[]) {
  expect(ADMIN_OPERATIONS.length).toBeGreaterThan(0);
  for (const authorization of authorizations) {
    for (const res of await callAll(api, authorization)) {
      expect(res.status, String(authorization).slice(0, 40)).toBe(401);
      expect(res.body).toEqual({ error: 'invalid token' });
    }
  }
}

describe('a production API without ADMIN_TOKEN', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ NODE_ENV: 'production', SEEDBLOCK_CLOCK: 'system' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 401 invalid token to every operator endpoint, whatever the bearer', async () => {
    await expectAllRefused(api, [...WRONG, `Bearer ${TOKEN}`]);
  });
});

describe('a production API with ADMIN_TOKEN', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ NODE_ENV: 'production', SEEDBLOCK_CLOCK: 'system', ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 401 invalid token to every operator endpoint without the exact token', async () => {
    await expectAllRefused(api, WRONG);
  });

  it('serves every operator endpoint with it', async () => {
    for (const res of await callAll(api, `Bearer ${TOKEN}`)) expect(res.status).toBe(200);
  });
});
