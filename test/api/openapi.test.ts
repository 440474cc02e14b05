// Issue 6, operator's view, item 10: the OpenAPI 3.1 document generated from the zod schemas,
// served at /api/openapi.json, checked against real responses.
//
// - The routes the app serves under the API prefix (read from its Express router) and the
//   documented paths are the same set; every documented path answers, undocumented ones do not.
// - For every operation and every status it documents, the status is produced for real (real
//   HTTP, real Redis, real probe against fake game servers on loopback, a private redis-server
//   that is stopped for 503) and the body is validated twice: with the zod schema of OPERATIONS
//   and with the JSON Schema of the served document (zod's z.fromJSONSchema). Documented headers
//   are present; documented `error` strings are the real ones. The producers are read from the
//   route table (issue 36): what an entry declares (body, auth, limits, parameters, plugin
//   minimum, a Redis outage) yields its answers' producers; only what a handler decides is
//   written below, by route id.
// - On a Redis outage every operation still answers a status it documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../api/app.ts';
import { HiddenSeeds } from '../../api/maps/hidden-seeds.ts';
import { mapRebuilds } from '../../api/maps/rebuilds.ts';
import { MapMemoryCache } from '../../api/maps/memory-cache.ts';
import { startRequestCounter } from '../../api/jobs/request-counter.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createMetrics } from '../../api/metrics.ts';
import { DOCUMENTED_ROUTES as OPERATIONS, documentOperations, requiredHeaders } from '../../api/openapi.ts';
import { RATE_LIMITS } from '../../store/index.ts';
import type { Route as Operation } from '../../api/routes/route.ts';
import { compileTrustProxy } from '../../api/http/trust-proxy.ts';
import { createProbe } from '../../api/probe/index.ts';
import { startFakeA2sServer, type FakeA2sServer } from '../support/fakes/a2s-server.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { inlineRefs } from '../support/openapi-refs.ts';
import { advanceClock, MINUTE } from '../support/clock.ts';
import { startTestWorker } from '../support/generator-worker.ts';
import { openWindow, waitReady } from '../support/read-api.ts';
import { type HttpAnswer, type HttpInit, send } from '../support/http.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

const ADMIN_TOKEN = 'contract-admin-token-0123';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
/** Well-formed in shape, unknown to the service. */
const BOGUS_KEY = `sbk_${'A'.repeat(32)}000000`;
const UNKNOWN_CODE = 'ZZZZZ-ZZZZZ';

type Res = HttpAnswer<unknown>;
type Producer = () => Promise<Res[]>;
type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];
interface DocumentedAnswer {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json': { schema: JsonSchema } };
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { responses: Record<string, DocumentedAnswer> }>>;
}

const opKey = (op: Pick<Operation, 'method' | 'path'>) => `${op.method.toUpperCase()} ${op.path}`;

let api: TestApi; // the API under test: ADMIN_TOKEN set, private probes allowed
let busy: TestApi; // QUEUE_MAX=1, private probes refused (its own prefix)
let down: TestApi; // on a private redis-server that is stopped
let redis: PrivateRedis;
let direct: FakeA2sServer[]; // game servers that answer
let garbage: FakeA2sServer; // something that answers, but not a game server
let doc: Document;

let ipCount = 0;
/**
 * A fresh client IP (X-Forwarded-For from loopback is believed), so limits never collide: from
 * 198.18.0.0/15, as many as the producers need.
 */
const fromNewIp = () => {
  ipCount++;
  return { 'x-forwarded-for': `198.${18 + (ipCount >> 16)}.${(ipCount >> 8) & 255}.${ipCount & 255}` };
};

const url = (target: TestApi, path: string) => `${target.base}${path}`;
const get = (target: TestApi, path: string, headers: Record<string, string> = {}) =>
  send<unknown>(url(target, path), { headers });
const post = (target: TestApi, path: string, json: unknown, headers: Record<string, string> = {}) =>
  send<unknown>(url(target, path), { json, headers });
const postEmpty = (target: TestApi, path: string, headers: Record<string, string> = {}) =>
  send<unknown>(url(target, path), { method: 'POST', headers });
/** Self-claims come from 127.0.0.1 itself: the probe goes to the request IP. */
const selfClaim = (port: number, headers: Record<string, string> = {}) =>
  post(api, '/v1/servers/claim', { port, clientName: 'contract test' }, headers);
const pastInterval = () => advanceClock(api, 5 * MINUTE);

/** Sends `count` requests and returns the last answer (past a limit, it is the 429). */
async function last(count: number, request: () => Promise<Res>): Promise<Res> {
  let res: Res | undefined;
  for (let i = 0; i < count; i++) res = await request();
  return res!;
}

function errorOf(res: Res): unknown {
  return (res.body as { error?: unknown } | null)?.error;
}

/** An operation's path with each declared parameter at its example, or at `text`. */
const pathOf = (op: Operation, text?: string) =>
  op.path.replace(/\{(\w+)\}/g, (_, name: string) => text ?? String(op.params![name]!.example));

/** What a request of the operation presents: the key or token its table entry asks for. */
async function authFor(op: Operation): Promise<Record<string, string>> {
  if (op.auth === 'adminToken') return admin;
  if (op.auth === 'serverKey') return bearer((await api.store.issueHttpKey()).credential);
  return {};
}

/** A request of the operation as its table entry describes it: its example body, `headers` added. */
function request(op: Operation, target: TestApi, headers: Record<string, string>, path = pathOf(op)) {
  if (op.outsidePrefix) return send<unknown>(`${target.url}${path}`, { method: op.method.toUpperCase() });
  const init: HttpInit = { method: op.method.toUpperCase(), headers };
  if (op.body && op.method === 'post') init.json = op.bodyExample;
  return send<unknown>(url(target, path), init);
}

// A valid-looking request per operation: for "documented paths exist" and the Redis outage.
function sampleRequest(op: Operation, target: TestApi): Promise<Res> {
  const headers = op.auth === 'adminToken' ? admin : op.auth === 'serverKey' ? bearer(BOGUS_KEY) : {};
  return request(op, target, { ...headers, ...fromNewIp() });
}

/**
 * The answers an operation's table entry implies, produced from the entry alone (routes/route.ts):
 * its body's rules (400 naming a missing field, 413, 415: a body is read after the limits and the
 * key, so they need only the key), its auth (401), the first of its limits that count every
 * request (429), its parameters (400), the plugin minimum (426) and a Redis outage (503). What
 * the handler decides is produced by DECISIONS below.
 */
function tableProducers(op: Operation): Record<number, Producer[]> {
  const out: Record<number, Producer[]> = {};
  const add = (status: number, producer: Producer) => (out[status] ??= []).push(producer);
  const path = pathOf(op);
  const withBody = async (raw: string, headers: Record<string, string> = {}) =>
    send<unknown>(url(api, path), {
      raw,
      headers: { 'content-type': 'application/json', ...(await authFor(op)), ...fromNewIp(), ...headers },
    });
  if (op.body) {
    add(400, async () => [await withBody('{}')]);
    add(413, async () => [await withBody(JSON.stringify({ pad: 'x'.repeat(17 * 1024) }))]);
    add(415, async () => [
      await withBody('{}', { 'content-type': 'application/json; charset=latin1' }),
      await withBody('{}', { 'content-encoding': 'x-unknown' }),
    ]);
  }
  if (op.auth) {
    const wrong = op.auth === 'serverKey' ? bearer(BOGUS_KEY) : bearer('wrong-admin-token-0123');
    add(401, async () => [
      await request(op, api, { ...wrong, ...fromNewIp() }),
      await request(op, api, fromNewIp()),
    ]);
  }
  const [limit] = (op.limits ?? [])
    .map((name) => RATE_LIMITS[name])
    .filter((l) => l.when === 'request')
    .sort((a, b) => a.limit - b.limit);
  if (limit) {
    // Past the limit by one, from one client (a fresh IP) with one key.
    add(429, async () => {
      const headers = { ...(await authFor(op)), ...fromNewIp() };
      return [await last(limit.limit + 1, () => request(op, api, headers))];
    });
  }
  for (const [name, param] of Object.entries({ ...op.params, ...op.query })) {
    const at = op.query?.[name] ? `${path}?${name}=abc` : pathOf(op, 'abc');
    add(400, async () => {
      const res = await get(api, at);
      expect(res.body).toEqual(
        param.invalid ? { error: param.invalid } : { error: 'invalid request', field: name },
      );
      return [res];
    });
  }
  if (op.pluginMinimum) {
    add(426, async () => {
      await api.store.setMinimumVersion('9.9.9');
      try {
        return [await request(op, api, { ...(await authFor(op)), ...fromNewIp() })];
      } finally {
        await api.store.clearMinimumVersion();
      }
    });
  }
  if (op.responses[503]?.description.includes('`db unavailable`'))
    add(503, async () => [await sampleRequest(op, down)]);
  return out;
}

/** A report route's decisions (the body's rules, the key, the limits and 426 come from the table). */
function reportDecisions(path: '/plugin/v1/report' | '/v1/servers/report'): Record<number, Producer> {
  const report = (credential: string, body: Record<string, unknown>, headers = {}) =>
    post(api, path, { port: 7777, ...body }, { ...bearer(credential), ...headers });
  const seedBase = path === '/plugin/v1/report' ? 940_000 : 941_000;
  return {
    200: async () => {
      const key = await api.store.issueHttpKey();
      const opened = await report(key.credential, { event: 'round_start', seed: seedBase + 1 });
      const closed = await report(key.credential, { event: 'round_end', seed: seedBase + 1 });
      // `exhausted`: an HTTP key's window runs its 20 minutes, then no HTTP key can block the seed.
      const other = await api.store.issueHttpKey();
      await report(other.credential, { event: 'round_start', seed: seedBase + 2 });
      await advanceClock(api, 21 * MINUTE);
      const exhausted = await report(key.credential, { event: 'round_start', seed: seedBase + 2 });
      expect(exhausted.body).toEqual({ ok: true, blockedUntil: null, exhausted: true });
      expect((opened.body as { blockedUntil: unknown }).blockedUntil).toEqual(expect.any(String));
      return [opened, closed, exhausted];
    },
    400: async () => {
      const key = await api.store.issueHttpKey();
      return [
        await report(key.credential, { event: 'round_over', seed: 1 }),
        await report(key.credential, { event: 'round_end', seed: '1' }),
      ];
    },
    401: async () => {
      // A key revoked since it was issued.
      const key = await api.store.issueHttpKey();
      await api.store.revokeRegistration(key.serverId);
      return [await report(key.credential, { event: 'round_end', seed: 1 })];
    },
  };
}

// Several API processes share one rate counter through Redis while each caches the statistics
// for 60 s: 11 fresh processes × 2 routes = 22 cache misses from one IP, past the 20 per minute.
let statsLimited: Promise<Record<string, Res[]>> | undefined;
function statsPastLimit(): Promise<Record<string, Res[]>> {
  statsLimited ??= (async () => {
    const processes = await Promise.all(
      Array.from({ length: 11 }, () => startTestApi({ REDIS_PREFIX: api.config.REDIS_PREFIX })),
    );
    try {
      const ip = fromNewIp();
      const answers: Record<string, Res[]> = { '/stats/overview': [], '/stats/protection': [] };
      for (const p of processes) {
        for (const path of Object.keys(answers)) answers[path]!.push(await get(p, path, ip));
      }
      return answers;
    } finally {
      await Promise.all(processes.map((p) => p.close()));
    }
  })();
  return statsLimited;
}
const statsDecisions = (path: string): Record<number, Producer> => ({
  200: async () => [await get(api, path)],
  // The stats limit counts a step (a cache miss), not every request: the handler's to produce.
  429: async () => {
    const answers = (await statsPastLimit())[path]!;
    expect(answers.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(200));
    return answers.filter((r) => r.status !== 200);
  },
});

/**
 * The answers each route's handler decides, by route id: what no table entry can say (which
 * stored state yields a 200, a 403 blocked, a 409). Everything else comes from tableProducers.
 */
const DECISIONS: Record<string, Record<number, Producer>> = {
  selfClaim: {
    200: async () => {
      await pastInterval();
      return [await selfClaim(direct[0]!.port)];
    },
    400: async () => [
      await post(api, '/v1/servers/claim', { port: 0 }),
      await post(api, '/v1/servers/claim', { port: '27015' }),
    ],
    403: async () => {
      await pastInterval();
      return [
        await selfClaim(garbage.port), // no game server
        await post(busy, '/v1/servers/claim', { port: direct[0]!.port }), // private address
      ];
    },
    409: async () => {
      await pastInterval();
      expect((await selfClaim(direct[1]!.port)).status).toBe(200);
      await pastInterval();
      return [await selfClaim(direct[1]!.port)]; // live registration there, credential not shown
    },
    429: async () => {
      // The 5-minute interval right after an issue, then the 3 live credentials per IP.
      await pastInterval();
      const issued = await selfClaim(direct[2]!.port);
      const interval = await selfClaim(direct[3]!.port);
      let tooMany = issued;
      for (const fake of direct.slice(3)) {
        await pastInterval();
        tooMany = await selfClaim(fake.port);
        if (tooMany.status !== 200) break;
      }
      expect(errorOf(interval)).toBe('rate limited');
      expect(errorOf(tooMany)).toBe('too many credentials');
      return [interval, tooMany];
    },
  },
  serverReport: reportDecisions('/v1/servers/report'),
  pluginReport: reportDecisions('/plugin/v1/report'),
  revokeKey: {
    200: async () => {
      const key = await api.store.issueHttpKey();
      return [await postEmpty(api, '/v1/servers/revoke', bearer(key.credential))];
    },
  },
  pluginClaim: {
    200: async () => {
      const { code } = await api.store.issueClaimCode();
      return [await post(api, '/plugin/v1/claim', { code, port: 7777, pluginVersion: '1.2.0' }, fromNewIp())];
    },
    202: async () => {
      // An old-style code issued for one address, used from another.
      const { code } = await api.store.issueClaimCode({ ip: '198.51.100.10', port: 7777 });
      return [await post(api, '/plugin/v1/claim', { code, port: 7777 }, fromNewIp())];
    },
    400: async () => [await post(api, '/plugin/v1/claim', { code: UNKNOWN_CODE, port: 70000 })],
    401: async () => [await post(api, '/plugin/v1/claim', { code: UNKNOWN_CODE, port: 7777 })],
    403: async () => {
      const { code } = await api.store.issueClaimCode({ ip: '198.51.100.11', port: 7777 });
      const ip = fromNewIp();
      expect((await post(api, '/plugin/v1/claim', { code, port: 7777 }, ip)).status).toBe(202);
      const review = (await api.store.listReviews()).find((r) => r.code === code);
      await api.store.decideReview({ id: review!.id, decision: 'rejected', moderator: 'contract' });
      return [await post(api, '/plugin/v1/claim', { code, port: 7777 }, ip)];
    },
  },
  pluginVersion: {
    200: async () => [await get(api, '/plugin/v1/version'), await get(down, '/plugin/v1/version')],
  },
  readMap: {
    200: async () => {
      const worker = await startTestWorker(api.config.REDIS_PREFIX);
      try {
        expect((await get(api, '/jobs/950001')).status).toBe(200);
        await waitReady(api, 950_001, 20_000);
        return [
          await get(api, '/maps/950001'),
          await get(api, '/maps/950001', { 'accept-encoding': 'gzip' }),
          await get(api, '/maps/950001', { 'accept-encoding': 'identity' }),
        ];
      } finally {
        await worker.stop();
      }
    },
    202: async () => [await get(api, '/maps/950002', fromNewIp())],
    304: async () => {
      // 950001 was generated for the 200 above; each content coding revalidates its own ETag.
      const answers = [];
      for (const coding of ['br', 'identity']) {
        const map = await get(api, '/maps/950001', { 'accept-encoding': coding });
        expect(map.status).toBe(200);
        const etag = map.headers.get('etag')!;
        answers.push(await get(api, '/maps/950001', { 'accept-encoding': coding, 'if-none-match': etag }));
      }
      return answers;
    },
    400: async () => [await get(api, '/maps/0'), await get(api, '/maps/2147483648')],
    403: async () => {
      await openWindow(api, 950_003);
      await api.store.addToBlocklist(950_004);
      const windowed = await get(api, '/maps/950003');
      const permanent = await get(api, '/maps/950004');
      expect(windowed.body).toEqual({ error: 'blocked', blockedUntil: expect.any(String) });
      expect(permanent.body).toEqual({ error: 'blocked' });
      return [windowed, permanent];
    },
    // The uncached-maps limit counts a step (a seed not generated yet), judged in the map's script.
    429: async () => {
      // 20 seeds not generated yet per minute per IP (no worker runs now: they stay queued).
      const ip = fromNewIp();
      let seed = 951_000;
      return [await last(21, () => get(api, `/maps/${++seed}`, ip))];
    },
    503: async () => {
      // Queue full (QUEUE_MAX=1).
      await get(busy, '/maps/952001');
      return [await get(busy, '/maps/952002')];
    },
  },
  readJob: {
    200: async () => [await get(api, '/jobs/953001'), await get(api, '/jobs/950001')],
    400: async () => [await get(api, '/jobs/-1')],
    403: async () => {
      await openWindow(api, 953_002);
      await api.store.addToBlocklist(953_003);
      return [await get(api, '/jobs/953002'), await get(api, '/jobs/953003')];
    },
    503: async () => {
      await get(busy, '/jobs/953004');
      return [await get(busy, '/jobs/953005')];
    },
  },
  listSeeds: {
    200: async () => [await get(api, '/seeds'), await get(api, '/seeds?limit=1')],
    400: async () => [await get(api, '/seeds?limit=0')],
  },
  overviewStats: statsDecisions('/stats/overview'),
  protectionStats: statsDecisions('/stats/protection'),
  recordDetection: {
    200: async () => [await post(api, '/admin/v1/detections', { seed: 954_001 }, admin)],
    400: async () => [await post(api, '/admin/v1/detections', { seed: '954001' }, admin)],
  },
  openApiDocument: {
    200: async () => [await get(api, '/openapi.json')],
  },
  // At the root, outside the prefix; `down`'s Redis is stopped.
  liveness: {
    200: async () => [await send<unknown>(`${api.url}/healthz`), await send<unknown>(`${down.url}/healthz`)],
  },
  readiness: {
    200: async () => [await send<unknown>(`${api.url}/readyz`)],
    503: async () => [await send<unknown>(`${down.url}/readyz`)],
  },
};

/** Every producer of an operation: those its table entry implies, then its handler's decisions. */
function producersOf(op: Operation): Record<number, Producer[]> {
  const all = tableProducers(op);
  for (const [status, producer] of Object.entries(DECISIONS[op.id] ?? {}))
    (all[Number(status)] ??= []).push(producer);
  return all;
}

function documented(op: Operation, status: number): DocumentedAnswer {
  const answer = doc.paths[op.path]?.[op.method]?.responses[String(status)];
  if (!answer) throw new Error(`${opKey(op)} ${status} is not in the served document`);
  return answer;
}

/** A copy of `body` with one field given a value of a type no schema here allows for it. */
function corrupted(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { corrupted: true };
  const record = body as Record<string, unknown>;
  const field = 'error' in record ? 'error' : Object.keys(record)[0]!;
  const value = record[field];
  const wrong = typeof value === 'object' && value !== null && !Array.isArray(value) ? 42 : { wrong: 1 };
  return { ...record, [field]: wrong };
}

function checkAnswer(op: Operation, status: number, res: Res): void {
  const where = `${opKey(op)} → ${status}: ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBe(status);
  const answer = op.responses[status]!;
  const served = documented(op, status);

  if (answer.schema) {
    expect(res.headers.get('content-type'), where).toMatch(/^application\/json/);
    const byZod = answer.schema.safeParse(res.body);
    expect(byZod.success, `${where}\nzod: ${JSON.stringify(byZod.error?.issues)}`).toBe(true);
    const fromDocument = z.fromJSONSchema(inlineRefs(doc, served.content!['application/json'].schema));
    const byJson = fromDocument.safeParse(res.body);
    expect(byJson.success, `${where}\nJSON Schema: ${JSON.stringify(byJson.error?.issues)}`).toBe(true);
    // Neither validator accepts just anything.
    for (const wrong of [{}, corrupted(res.body)]) {
      expect(answer.schema.safeParse(wrong).success, `zod accepts ${JSON.stringify(wrong)}`).toBe(false);
      expect(fromDocument.safeParse(wrong).success, `JSON Schema accepts ${JSON.stringify(wrong)}`).toBe(
        false,
      );
    }
  } else {
    // Documented without a body, and sent without one.
    expect(served.content, where).toBeUndefined();
    expect(res.text, where).toBe('');
  }

  // Documented headers, in the table and the served document alike; the required ones are sent.
  expect(Object.keys(served.headers ?? {}).sort()).toEqual(Object.keys(answer.headers ?? {}).sort());
  for (const header of requiredHeaders(status, answer))
    expect(res.headers.get(header), `${where} ${header}`).toBeTruthy();
  const retryAfter = res.headers.get('retry-after');
  if (answer.headers?.['Retry-After'] && retryAfter !== null) expect(retryAfter).toMatch(/^[1-9]\d*$/);

  // The `error` strings a description names (in backticks) are the ones actually sent.
  const named = [...served.description.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const error = errorOf(res);
  if (named.length > 0 && typeof error === 'string') expect(named, where).toContain(error);
}

// The (method, path) pairs the Express app serves under the API prefix, from its router stack.
interface LayerLike {
  rawPath?: unknown;
  slash?: boolean;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
}
function servedRoutes(stack: LayerLike[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const paths = ([] as unknown[]).concat(layer.route.path).map(String);
      return Object.keys(layer.route.methods).flatMap((m) =>
        paths.map((p) => `${m.toUpperCase()} ${prefix}${p}`),
      );
    }
    if (layer.handle?.stack) {
      return servedRoutes(layer.handle.stack, layer.slash ? prefix : `${prefix}${String(layer.rawPath)}`);
    }
    return [];
  });
}

beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'openapi-redis' });
  [api, busy, down, garbage, ...direct] = await Promise.all([
    startTestApi({ ADMIN_TOKEN, PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '300' }),
    startTestApi({ QUEUE_MAX: '1' }),
    startTestApi({ REDIS_URL: redis.url, ADMIN_TOKEN }),
    startFakeA2sServer({ mode: 'garbage' }),
    ...Array.from({ length: 6 }, () => startFakeA2sServer({ mode: 'direct' })),
  ]);
  await redis.kill();
  const served = await get(api, '/openapi.json');
  expect(served.status).toBe(200);
  doc = served.body as Document;
});
afterAll(async () => {
  await Promise.all([
    api?.close(),
    busy?.close(),
    down?.close(),
    garbage?.close(),
    ...(direct ?? []).map((f) => f.close()),
  ]);
  await redis?.stop();
});

describe('the served document', () => {
  it('is OpenAPI 3.1.0 for the API prefix, with one documented operation per OPERATIONS entry', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api' }]);
    const documentedOps = documentOperations(doc).map(
      ({ method, path }) => `${method.toUpperCase()} ${path}`,
    );
    // The probes alone are served at the root.
    for (const op of OPERATIONS) {
      expect(doc.paths[op.path]!.servers, opKey(op)).toEqual(op.outsidePrefix ? [{ url: '/' }] : undefined);
    }
    expect(documentedOps.sort()).toEqual(OPERATIONS.map(opKey).sort());
    for (const op of OPERATIONS) {
      expect(Object.keys(doc.paths[op.path]![op.method]!.responses).sort()).toEqual(
        Object.keys(op.responses).sort(),
      );
    }
  });

  it('documents exactly the routes the app serves under the API prefix', async () => {
    const logger = createLogger('silent', 'contract');
    const requests = startRequestCounter(api.store, logger);
    try {
      const app = createApp({
        config: api.config,
        store: api.store,
        logger,
        probe: createProbe('a2s', { allowPrivate: false, timeoutMs: 100 }),
        requests,
        startedAt: 0,
        metrics: createMetrics(api.store),
        trustProxy: compileTrustProxy(api.config.TRUST_PROXY),
        mapMemory: new MapMemoryCache(0),
        hiddenSeeds: new HiddenSeeds(api.store),
        rebuilds: mapRebuilds(),
      });
      const routes = servedRoutes((app as unknown as { router: { stack: LayerLike[] } }).router.stack)
        .filter((r) => r.split(' ')[1]!.startsWith('/api/'))
        .map((r) => r.replace(' /api/', ' /').replace(/:([a-z]+)/g, '{$1}'));
      expect(routes.length).toBeGreaterThan(5); // the walk found the routers at all
      // The probes are answered by the front door, before express (api/health.ts).
      const inExpress = OPERATIONS.filter((op) => !op.outsidePrefix);
      expect([...new Set(routes)].sort()).toEqual(inExpress.map(opKey).sort());
    } finally {
      await requests.stop();
    }
  });

  it('every documented path and method answers; other methods and paths are the generic 404', async () => {
    const notFound = (res: Res) => res.status === 404 && errorOf(res) === 'not found';
    for (const op of OPERATIONS) {
      const res = await sampleRequest(op, api);
      expect(notFound(res), `${opKey(op)} answered the generic 404`).toBe(false);
      expect(Object.keys(op.responses), `${opKey(op)} answered ${res.status}`).toContain(String(res.status));
      // The other method on the same path is not served.
      const other = { ...op, method: op.method === 'get' ? 'post' : 'get' } as Operation;
      if (!OPERATIONS.some((o) => opKey(o) === opKey(other))) {
        expect(notFound(await sampleRequest(other, api)), `${opKey(other)} is served`).toBe(true);
      }
    }
    for (const path of ['/maps', '/v1/servers', '/v2/servers/claim', '/stats', '/openapi.yaml']) {
      expect(notFound(await get(api, path)), path).toBe(true);
    }
  });

  it('has a producer for every documented status, from the table or below, and none for an undocumented one', () => {
    for (const op of OPERATIONS) {
      expect(Object.keys(producersOf(op)).sort(), opKey(op)).toEqual(Object.keys(op.responses).sort());
    }
    // DECISIONS is keyed by the table's route ids, and by nothing else.
    expect(Object.keys(DECISIONS).filter((id) => !OPERATIONS.some((op) => op.id === id))).toEqual([]);
  });
});

describe('every documented answer, produced for real', () => {
  for (const op of OPERATIONS) {
    for (const status of Object.keys(op.responses).map(Number)) {
      it(`${opKey(op)} → ${status}`, async () => {
        const producers = producersOf(op)[status];
        if (!producers) throw new Error(`no producer for ${opKey(op)} ${status}`);
        for (const produce of producers) {
          const answers = await produce();
          expect(answers.length).toBeGreaterThan(0);
          for (const res of answers) checkAnswer(op, status, res);
        }
      });
    }
  }
});

describe('a Redis outage', () => {
  it('every operation answers a documented status, and its body matches the documentation', async () => {
    for (const op of OPERATIONS) {
      const res = await sampleRequest(op, down);
      expect(Object.keys(op.responses), `${opKey(op)} answered ${res.status} ${res.text}`).toContain(
        String(res.status),
      );
      checkAnswer(op, res.status, res);
    }
  });
});
