import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { requiredHeaders } from '../../api/openapi.ts';
import { ROUTES as OPERATIONS } from '../../api/routes/table.ts';
import type { Route as Operation } from '../../api/routes/route.ts';
import { ClockResponseSchema } from '../../api/schemas.ts';
import { buildViewer } from '../../viewer/build.ts';
import { DIST_DIR } from '../../viewer/dist-dir.ts';
import { MAX_BODY_BYTES, type ManualClock } from '../../store/index.ts';
import { startTestApi, testPrefix, type TestApi } from '../support/api.ts';
import { startTestWorker } from '../support/generator-worker.ts';
import {
  bodySpecs,
  headersArb,
  METHODS,
  paramArb,
  percentEncode,
  queryArb,
  requestArb,
  type FuzzPools,
  type FuzzRequest,
  type RequestShape,
} from '../support/fuzz-requests.ts';
import { pollUntil } from '../support/clock.ts';

// Drill (issue 9): every endpoint fuzzed with fast-check — thousands of requests each, with
// arbitrary bodies (any JSON, any value, unicode text, objects with the right keys and wrong types,
// duplicate keys, 1e309, -0, 2^53+1, deep arrays, over 16 KiB, bytes, fake compression), content
// types, headers (Authorization, X-Forwarded-For/-Proto, Accept-Encoding, If-None-Match, ...),
// path parameters (percent-encoding, %00, unicode, very long) and query strings. Every answer must
// be one the contract allows for that request:
// - never a 5xx, except a 503 the operation documents;
// - a status the OPERATIONS entry documents, or one of the generic answers every route may give:
//     404 {"error":"not found"}       a path or method nothing serves (Express answers no 405);
//     400 {"error":"invalid request"} a body that is not parseable JSON (parsed before routing);
//     413 {"error":"request body too large (at most 16 KiB)"};
//     415 {"error":"unsupported charset (send UTF-8 JSON)" | "unsupported content encoding"};
//     301 to https                     X-Forwarded-Proto "http" from a trusted proxy (spec 1);
//     304                              GET /maps with If-None-Match naming the ETag (or *);
//     200 with Allow                   OPTIONS of a served path (Express's automatic answer);
//     400 a path parameter that is not valid percent-encoding, whatever the method (the router
//         decodes it before it looks at the method): `invalid seed` on maps and jobs;
// - every 4xx/5xx a JSON body with a string `error`, one the spec names for that status and
//   operation (part 4 and 7), valid against the OPERATIONS schema; every documented 2xx valid
//   against its schema; documented headers present (Retry-After, ETag, Cache-Control).
// Viewer pages answer 200 HTML (GET/HEAD), /metrics 200 text or 401 JSON, /__test__/clock 200
// {now} or a 4xx JSON; files under /assets may answer what express.static answers (a 404 in plain
// text, a 301 to a directory's slash, ...): static files, outside the API and its error bodies,
// never a 5xx. The API's case-insensitive routes and optional trailing slash count as served.
//
// The API trusts loopback proxies (TRUST_PROXY=loopback) so forwarded headers are believed; the
// self-claim, viewer, unknown-path and clock cases go to a second API on the same data with
// TRUST_PROXY=false: with PROBE_ALLOW_PRIVATE unset its probe refuses our loopback address
// (403 private address) before any packet is sent, and no forwarded address can aim it elsewhere.

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789';
/**
 * Requests per property run (sent at once); runs per target scale with FUZZ_SCALE. Each run draws
 * new cases (fast-check's seed is random unless FUZZ_SEED is set), so 480 a route per run add up
 * across runs; FUZZ_SCALE=4 digs deeper in one.
 */
const BATCH = 16;
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const API_RUNS = Math.round(30 * SCALE);
const OTHER_RUNS = Math.round(12 * SCALE);

/** Stands for "any string": the error is then held to the OPERATIONS schema alone. */
const ANY_ERROR: string[] = [];

const GENERIC_ERRORS: Record<number, string[]> = {
  400: ['invalid request'],
  404: ['not found'],
  413: ['request body too large (at most 16 KiB)'],
  415: ['unsupported charset (send UTF-8 JSON)', 'unsupported content encoding'],
};

/** The error strings spec part 4 and 7 name, per operation and status. */
const SPEC_ERRORS: Record<string, Record<number, string[]>> = {
  'post /v1/servers/claim': {
    400: ['invalid request'],
    403: ['no game server', 'private address'],
    409: ['address in use'],
    429: ['too many credentials', 'rate limited'],
    503: ['probe unavailable', 'db unavailable'],
  },
  'post /v1/servers/report': {
    400: ['invalid request'],
    401: ['invalid credential'],
    429: ['rate limited'],
    503: ['db unavailable'],
  },
  'post /v1/servers/revoke': { 401: ['invalid credential'], 429: ['rate limited'], 503: ['db unavailable'] },
  'post /plugin/v1/claim': {
    400: ['invalid request'],
    401: ['invalid code'],
    403: ['claim rejected'],
    426: ['plugin_outdated'],
    429: ['rate limited'],
    503: ['db unavailable'],
  },
  'post /plugin/v1/report': {
    400: ['invalid request'],
    401: ['invalid credential'],
    426: ['plugin_outdated'],
    429: ['rate limited'],
    503: ['db unavailable'],
  },
  'get /plugin/v1/version': {},
  // Reads need Redis too: README "every call that needs it answers 503 db unavailable".
  'get /maps/{seed}': {
    400: ['invalid seed'],
    403: ['blocked'],
    429: ['rate limited'],
    503: ['map unavailable', 'db unavailable'],
  },
  'get /jobs/{seed}': { 400: ['invalid seed'], 403: ['blocked'], 503: ['map unavailable', 'db unavailable'] },
  'get /seeds': { 400: ['invalid cursor', 'invalid request'], 503: ['db unavailable'] },
  'get /stats/overview': { 429: ['rate limited'], 503: ['db unavailable'] },
  'get /stats/protection': { 429: ['rate limited'], 503: ['db unavailable'] },
  'post /admin/v1/detections': { 400: ['invalid request'], 401: ['invalid token'], 503: ['db unavailable'] },
};

type RouteKind = 'operation' | 'openapi' | 'viewer' | 'metrics' | 'clock' | 'assets';
interface Route {
  pattern: RegExp;
  methods: string[];
  kind: RouteKind;
  op?: Operation;
}

const routePattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{seed\\}', '([^/]+)')}/?$`, 'i');

/** Where an operation is served: under the API prefix, or at the root (the health probes). */
const servedAt = (op: Operation) => (op.outsidePrefix ? op.path : `/api${op.path}`);

/** The routes of api/app.ts, as Express matches them (case-insensitive, optional trailing slash). */
const ROUTES: Route[] = [
  ...OPERATIONS.map((op) => ({
    pattern: routePattern(servedAt(op)),
    methods: op.method === 'get' ? ['GET', 'HEAD'] : ['POST'],
    kind: 'operation' as const,
    op,
  })),
  { pattern: routePattern('/api/openapi.json'), methods: ['GET', 'HEAD'], kind: 'openapi' },
  { pattern: /^\/$/, methods: ['GET', 'HEAD'], kind: 'viewer' },
  { pattern: /^\/seed\/([^/]+)\/?$/i, methods: ['GET', 'HEAD'], kind: 'viewer' },
  { pattern: /^\/seeds\/?$/i, methods: ['GET', 'HEAD'], kind: 'viewer' },
  { pattern: /^\/stats\/?$/i, methods: ['GET', 'HEAD'], kind: 'viewer' },
  { pattern: /^\/metrics\/?$/i, methods: ['GET', 'HEAD'], kind: 'metrics' },
  { pattern: /^\/__test__\/clock\/?$/i, methods: ['POST'], kind: 'clock' },
  { pattern: /^\/assets(\/.*)?$/i, methods: METHODS, kind: 'assets' },
];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
  ms: number;
}

interface Allowed {
  /** status → the error strings allowed with it (null: not an error body), and the schema. */
  statuses: Map<
    number,
    { errors: string[] | null; schema?: z.ZodType; headers?: string[]; contentType?: RegExp }
  >;
  /** The answer must be the 301 to https (X-Forwarded-Proto http from a trusted proxy). */
  toHttps?: boolean;
}

const decodes = (s: string) => {
  try {
    decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
};

const isJson = (answer: Answer) => /^application\/json\b/i.test(answer.headers.get('content-type') ?? '');

function allowedFor(req: FuzzRequest, trustsProxy: boolean): Allowed {
  const statuses: Allowed['statuses'] = new Map();
  const allow = (
    status: number,
    errors: string[] | null,
    schema?: z.ZodType,
    headers?: string[],
    contentType?: RegExp,
  ) => {
    const known = statuses.get(status);
    if (known && known.errors && errors) {
      statuses.set(status, { ...known, errors: [...new Set([...known.errors, ...errors])] });
    } else if (!known) {
      statuses.set(status, { errors, schema, headers, contentType });
    }
  };
  // The health probes are answered before the edge: a load balancer's plain-http probe is never
  // redirected (api/health.ts).
  const pathname = new URL(`http://127.0.0.1${req.path}`).pathname;
  const probe =
    ['GET', 'HEAD'].includes(req.method) && OPERATIONS.some((op) => op.outsidePrefix && op.path === pathname);
  const xfp = req.headers['x-forwarded-proto'];
  if (!probe && trustsProxy && xfp !== undefined && xfp.split(',')[0]!.trim().toLowerCase() === 'http') {
    allow(301, null);
    return { statuses, toHttps: true };
  }
  // Generic answers to the body: it is parsed (JSON only) before any route is chosen.
  if (req.body !== undefined) {
    allow(400, GENERIC_ERRORS[400]!);
    if (req.payloadBytes > MAX_BODY_BYTES || req.body.length > MAX_BODY_BYTES)
      allow(413, GENERIC_ERRORS[413]!);
    const type = req.headers['content-type'] ?? '';
    const charset = /;\s*charset\s*=\s*"?([^";]*)/i.exec(type)?.[1]?.trim().toLowerCase();
    const coding = req.headers['content-encoding']?.trim().toLowerCase();
    if (
      (charset !== undefined && !charset.startsWith('utf-')) ||
      (coding !== undefined && !['identity', 'gzip', 'deflate', 'br'].includes(coding))
    ) {
      allow(415, GENERIC_ERRORS[415]!);
    }
  }
  const route = ROUTES.find((r) => r.pattern.test(pathname));
  const param = route?.pattern.exec(pathname)?.[1];
  // The router decodes a path parameter before it looks at the method: one that is not valid
  // percent-encoding is a 400 for every method (`invalid seed` for maps and jobs).
  if (param !== undefined && !decodes(param)) {
    allow(400, route?.kind === 'operation' ? ['invalid seed'] : GENERIC_ERRORS[400]!);
  }
  if (!route || !route.methods.includes(req.method)) {
    // Outside the API (whose prefix routes case-insensitively), a page that does not exist is
    // the viewer's HTML 404 page.
    const page = !/^\/api(\/|$)/i.test(pathname) && (req.method === 'GET' || req.method === 'HEAD');
    if (page) allow(404, null, undefined, undefined, /^text\/html/);
    else allow(404, GENERIC_ERRORS[404]!);
    if (route && req.method === 'OPTIONS') allow(200, null);
    if (route?.kind === 'assets') for (const status of [301, 404]) allow(status, null);
    return { statuses };
  }
  switch (route.kind) {
    case 'operation': {
      const op = route.op!;
      // An operation the spec does not describe (e.g. one added to OPERATIONS later) is held to
      // its OPERATIONS schemas only.
      const spec = SPEC_ERRORS[`${op.method} ${op.path}`];
      for (const [code, answer] of Object.entries(op.responses)) {
        const status = Number(code);
        const errors = status < 400 ? null : spec ? (spec[status] ?? []) : ANY_ERROR;
        allow(status, errors, answer.schema, requiredHeaders(status, answer));
      }
      if (op.path === '/maps/{seed}' && req.headers['if-none-match'] !== undefined) allow(304, null);
      break;
    }
    case 'openapi':
      allow(200, null);
      break;
    case 'viewer':
      allow(200, null, undefined, undefined, /^text\/html/);
      break;
    case 'metrics':
      allow(200, null, undefined, undefined, /^text\/plain/);
      allow(401, ['invalid token']);
      break;
    case 'clock':
      allow(200, null, ClockResponseSchema);
      allow(400, GENERIC_ERRORS[400]!);
      break;
    case 'assets':
      // A built file (br or gzip as accepted), or the HTML 404 page; a path that is not valid
      // percent-encoding is the generic 400. Any status but a 5xx.
      for (const status of [200, 206, 301, 304, 400, 403, 404, 412, 416]) allow(status, null);
      break;
  }
  return { statuses };
}

/** Checks one answer against what the contract allows for the request; returns the problem or null. */
function problem(req: FuzzRequest, answer: Answer, trustsProxy: boolean): string | null {
  const { statuses, toHttps } = allowedFor(req, trustsProxy);
  const rule = statuses.get(answer.status);
  if (answer.status >= 500 && answer.status !== 503) return `a ${answer.status}`;
  if (!rule) return `status ${answer.status} is not one of ${[...statuses.keys()].join(', ')}`;
  for (const name of rule.headers ?? []) {
    if (!answer.headers.has(name)) return `no ${name} header`;
  }
  if (toHttps && !answer.headers.get('location')?.startsWith('https://')) return 'a 301 not to https';
  if (rule.contentType && !rule.contentType.test(answer.headers.get('content-type') ?? '')) {
    return `content type ${answer.headers.get('content-type')}`;
  }
  if (req.method === 'HEAD' || answer.status === 304 || answer.status === 301) return null;
  if (rule.errors !== null) {
    if (!isJson(answer)) return `an error body that is not JSON: ${answer.headers.get('content-type')}`;
    const body = answer.body as { error?: unknown } | undefined;
    if (typeof body?.error !== 'string') return 'an error body without a string `error`';
    if (rule.errors !== ANY_ERROR && !rule.errors.includes(body.error))
      return `error ${JSON.stringify(body.error)} is not one of ${JSON.stringify(rule.errors)}`;
  }
  if (rule.schema) {
    const parsed = rule.schema.safeParse(answer.body);
    if (!parsed.success)
      return `a body that fails its documented schema: ${parsed.error.message.slice(0, 400)}`;
  }
  return null;
}

async function send(base: string, req: FuzzRequest): Promise<Answer> {
  // Joined as text, never resolved against the base: a path like `//host/x` must stay a path.
  const url = new URL(`${base}${req.path}`);
  if (url.origin !== new URL(base).origin) throw new Error(`refusing to send off loopback: ${url.href}`);
  const started = performance.now();
  const response = await fetch(url, {
    method: req.method,
    headers: req.headers,
    body: req.body as Uint8Array<ArrayBuffer> | undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(5_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body, ms: performance.now() - started };
}

const describeRequest = (req: FuzzRequest) =>
  JSON.stringify({
    method: req.method,
    path: req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length})` : req.path,
    headers: Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, v.length > 200 ? `${v.slice(0, 200)}…` : v]),
    ),
    body: req.bodyKind,
    bodyStart: req.body ? Buffer.from(req.body.subarray(0, 300)).toString('latin1') : undefined,
    payloadBytes: req.payloadBytes,
  });

let api: TestApi;
let safe: TestApi;
let clockApi: TestApi;
let pools: FuzzPools;
let revokePools: FuzzPools;
const tally = new Map<string, { cases: number; statuses: Map<number, number>; ms: number }>();

async function fuzz(name: string, target: TestApi, shape: RequestShape, runs: number) {
  const trustsProxy = target.config.TRUST_PROXY !== false;
  const entry = { cases: 0, statuses: new Map<number, number>(), ms: 0 };
  tally.set(name, entry);
  const started = performance.now();
  const property = fc.asyncProperty(
    fc.array(requestArb(shape), { minLength: BATCH, maxLength: BATCH }),
    async (batch) => {
      const answers = await Promise.all(batch.map((req) => send(target.url, req)));
      for (const [i, answer] of answers.entries()) {
        const req = batch[i]!;
        entry.cases += 1;
        entry.statuses.set(answer.status, (entry.statuses.get(answer.status) ?? 0) + 1);
        const found = problem(req, answer, trustsProxy);
        if (found) {
          throw new Error(
            `${name}: ${found}\n  request: ${describeRequest(req)}\n  answer: ${answer.status} ` +
              `${answer.headers.get('content-type')} ${answer.text.slice(0, 300)}`,
          );
        }
      }
    },
  );
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
  const details = await fc.check(property, { numRuns: runs, endOnFailure: true, seed });
  if (details.failed) {
    // The failing request alone (the batch around it would be thousands of lines).
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${cause}\n  (FUZZ_SEED=${details.seed} reproduces this run)`);
  }
  entry.ms = performance.now() - started;
}

beforeAll(async () => {
  if (!existsSync(join(DIST_DIR, 'index.html'))) await buildViewer();
  const prefix = testPrefix();
  const common = { REDIS_PREFIX: prefix, RATE_LIMIT_MULTIPLIER: '100000', ADMIN_TOKEN };
  [api, safe, clockApi] = await Promise.all([
    startTestApi({ ...common, TRUST_PROXY: 'loopback' }),
    startTestApi({ ...common, TRUST_PROXY: 'false' }),
    startTestApi({ RATE_LIMIT_MULTIPLIER: '100000', TRUST_PROXY: 'false' }),
  ]);
  expect(safe.config.PROBE_ALLOW_PRIVATE).toBe(false);
  const store = api.store;
  await (store.ctx.clock as ManualClock).set(Date.parse('2026-07-01T08:00:00.000Z'));

  // Three generated maps: one served, one behind an open window, one on the permanent blocklist.
  const seeds = [4_242_001, 4_242_002, 4_242_003];
  const worker = await startTestWorker(prefix);
  try {
    for (const seed of seeds) await fetch(`${api.base}/jobs/${seed}`);
    for (const seed of seeds) {
      await pollUntil(
        async () => (await fetch(`${api.base}/jobs/${seed}`)).json() as Promise<{ status: string }>,
        (j) => j.status === 'ready',
        { what: `map ${seed}` },
      );
    }
  } finally {
    await worker.stop();
  }
  const etags: string[] = [];
  for (const coding of ['br', 'gzip', 'identity']) {
    const res = await fetch(`${api.base}/maps/${seeds[0]}`, { headers: { 'accept-encoding': coding } });
    await res.arrayBuffer();
    etags.push(res.headers.get('etag')!);
  }
  const owner = await store.issueHttpKey();
  await fetch(`${api.base}/plugin/v1/report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ event: 'round_start', seed: seeds[1], port: 27015 }),
  });
  await store.addToBlocklist(seeds[2]!);
  await store.setMinimumVersion('1.5.0');

  const credentials: string[] = [];
  for (let i = 0; i < 40; i++) credentials.push((await store.issueHttpKey()).credential);
  const game = await store.issueSelfClaim({ ip: '127.0.0.1', port: 27015 }, {});
  if ('credential' in game) credentials.push(game.credential);
  // Past the IP's 5-minute self-claim interval again, so self-claims reach the probe.
  await (store.ctx.clock as ManualClock).advance(5 * 60_000);
  const revocable: string[] = [];
  for (let i = 0; i < 150; i++) revocable.push((await store.issueHttpKey()).credential);
  const codes: string[] = [];
  for (let i = 0; i < 40; i++) codes.push((await store.issueClaimCode()).code);
  for (let i = 0; i < 20; i++)
    codes.push((await store.issueClaimCode({ ip: '203.0.113.9', port: 27015 })).code);
  pools = { credentials, codes, seeds, etags, adminToken: ADMIN_TOKEN };
  revokePools = { ...pools, credentials: revocable };
}, 30_000);

afterAll(async () => {
  await Promise.all([api?.close(), safe?.close(), clockApi?.close()]);
  const lines = [...tally.entries()].map(
    ([name, t]) =>
      `  ${name.padEnd(34)} ${String(t.cases).padStart(5)} cases ${(t.ms / 1000).toFixed(1).padStart(5)} s  ` +
      [...t.statuses.entries()]
        .sort(([x], [y]) => x - y)
        .map(([s, n]) => `${s}×${n}`)
        .join(' '),
  );
  const total = [...tally.values()].reduce((sum, t) => sum + t.cases, 0);
  console.log(`fuzz: ${total} requests\n${lines.join('\n')}`);
});

const BODY_OF: Record<string, keyof ReturnType<typeof bodySpecs>> = {
  '/v1/servers/claim': 'selfClaim',
  '/v1/servers/report': 'report',
  '/plugin/v1/report': 'report',
  '/plugin/v1/claim': 'pluginClaim',
  '/admin/v1/detections': 'detection',
};

describe('fuzzing every endpoint', () => {
  for (const op of OPERATIONS) {
    const name = `${op.method.toUpperCase()} ${op.path}`;
    it(name, async () => {
      const p = op.path === '/v1/servers/revoke' ? revokePools : pools;
      const body = BODY_OF[op.path];
      const target = op.path === '/v1/servers/claim' ? safe : api;
      const withSeed = op.path.includes('{seed}');
      await fuzz(
        name,
        target,
        {
          method: op.method.toUpperCase(),
          path: (param, query) => `${servedAt(op).replace('{seed}', param)}${query}`,
          body: body ? bodySpecs(p)[body]! : null,
          params: withSeed ? paramArb(p.seeds) : undefined,
          query: op.path === '/seeds' ? queryArb(p.seeds) : fc.oneof(fc.constant(''), queryArb(p.seeds)),
          headers: headersArb(p),
        },
        API_RUNS,
      );
    });
  }

  it('unknown paths', async () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
      fc.constantFrom(
        'api',
        'v1',
        'v2',
        'plugin',
        'servers',
        'maps',
        'admin',
        '%',
        '%00',
        '%2F',
        'API',
        '..',
      ),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(percentEncode),
    );
    await fuzz(
      'unknown paths',
      safe,
      {
        method: 'GET',
        path: (param, query) => `/${param}${query}`,
        body: null,
        params: fc
          .array(segment, { minLength: 1, maxLength: 6 })
          .map((s) => s.join('/'))
          .filter((p) => !/^(assets)(\/|$)/i.test(p)),
        query: queryArb(pools.seeds),
        headers: headersArb(pools),
      },
      OTHER_RUNS,
    );
  });

  it('viewer pages and assets', async () => {
    await fuzz(
      'viewer pages and assets',
      safe,
      {
        method: 'GET',
        path: (param, query) => `${param}${query}`,
        body: null,
        params: fc.oneof(
          fc.constantFrom(
            '/',
            '/seeds',
            '/stats',
            '/seeds/',
            '/STATS',
            '/assets/',
            '/assets/x.js',
            '/assets/%',
          ),
          paramArb(pools.seeds).map((p) => `/seed/${p}`),
          paramArb(pools.seeds).map((p) => `/assets/${p}`),
        ),
        query: queryArb(pools.seeds),
        headers: headersArb(pools),
      },
      OTHER_RUNS,
    );
  });

  it('GET /metrics', async () => {
    await fuzz(
      'GET /metrics',
      safe,
      {
        method: 'GET',
        path: (_param, query) => `/metrics${query}`,
        body: null,
        query: queryArb(pools.seeds),
        headers: headersArb(pools),
      },
      OTHER_RUNS,
    );
  });

  it('POST /__test__/clock', async () => {
    await fuzz(
      'POST /__test__/clock',
      clockApi,
      {
        method: 'POST',
        path: (_param, query) => `/__test__/clock${query}`,
        body: bodySpecs(pools).clock!,
        query: fc.constant(''),
        headers: headersArb(pools),
      },
      OTHER_RUNS,
    );
  });
});
