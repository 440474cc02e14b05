import { z } from 'zod';
import { generateMap, MapSchema } from '../generator/index.ts';
import { SEED_MAX, SEED_MIN } from '../store/index.ts';
import {
  BlockedSchema,
  ClaimReviewSchema,
  DetectionBodySchema,
  ErrorBodySchema,
  JobSchema,
  LivenessSchema,
  MapPendingSchema,
  MapUnavailableSchema,
  OverviewSchema,
  PluginClaimBodySchema,
  PluginOutdatedSchema,
  ProtectionSchema,
  ReadySchema,
  ReportBodySchema,
  ReportResponseSchema,
  RevokeResponseSchema,
  SeedPageSchema,
  SelfClaimBodySchema,
  TooManyCredentialsSchema,
  UnreadySchema,
  VerifiedClaimSchema,
  VersionInfoSchema,
} from './schemas.ts';

// The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with.
// `OPERATIONS` is also what the contract test walks: every documented answer is checked
// against real responses. Its examples are parsed with those schemas when the document is built,
// so none can drift from what the service accepts and answers.

/** A documented answer; one without a schema has no body (304). */
type Answer = { description: string; schema?: z.ZodType; headers?: string[]; example?: unknown };
/** A query parameter: what it means and a value for the example request. */
type QueryParam = { description: string; example: number };
export interface Operation {
  method: 'get' | 'post';
  /** OpenAPI path under the API prefix, or at the root with `outsidePrefix`. */
  path: string;
  /** Served at the root whatever API_PREFIX is (the health probes). */
  outsidePrefix?: true;
  summary: string;
  auth?: 'serverKey' | 'adminToken';
  body?: z.ZodType;
  /** The example request's body; every operation with a body has one. */
  bodyExample?: unknown;
  query?: Record<string, QueryParam>;
  responses: Record<number, Answer>;
}

/** The seed of every example path. */
export const EXAMPLE_SEED = 224593721;
const EXAMPLE_CREDENTIAL = 'sbk_7Gq2LmZ9pX4vT1cR8sW3nB6yK0dF5hJa3f9c1e';
const EXAMPLE_DOWNLOAD = 'https://example.com/seedblock-plugin/releases/1.3.0';
const at = (time: string) => `2026-03-01T${time}:00.000Z`;
const verified = {
  status: 'verified',
  serverId: '5b0f8c1e-2d4a-4f6b-9c3e-7a1d2b3c4d5e',
  credential: EXAMPLE_CREDENTIAL,
  issuedAt: at('07:55'),
};
// A real map of the example seed, cut to one of each thing so the page stays readable.
const fullMap = generateMap(EXAMPLE_SEED);
const mapExample = {
  ...fullMap,
  rooms: fullMap.rooms.slice(0, 1),
  spawns: fullMap.spawns.slice(0, 1),
  doors: fullMap.doors.slice(0, 1),
  teslas: fullMap.teslas.slice(0, 1),
};

/** An error answer; its example is the first `error` string the description names. */
const error = (description: string, headers?: string[]): Answer => {
  const named = /`([^`]+)`/.exec(description)?.[1];
  return { description, schema: ErrorBodySchema, headers, ...(named ? { example: { error: named } } : {}) };
};
// Every operation with a JSON body: the body is read before anything else (http/json-body.ts).
const common = {
  400: error('`invalid request`: malformed'),
  413: error('`request body too large (at most 16 KiB)`'),
  415: error('`unsupported charset (send UTF-8 JSON)` or `unsupported content encoding`'),
  503: error('`db unavailable`: retry shortly'),
};
const limited = { 429: error('`rate limited`', ['Retry-After']) };
// Reads need Redis too: while it is away they answer 503 `db unavailable` like every other call.
const DbUnavailableSchema = z.object({ error: z.literal('db unavailable') });
const dbUnavailable = {
  503: {
    description: '`db unavailable`: retry shortly',
    schema: DbUnavailableSchema,
    example: { error: 'db unavailable' },
  },
};
const mapUnavailable = (what: string): Answer => ({
  description: `\`map unavailable\` (status busy): ${what}; or \`db unavailable\``,
  schema: z.union([MapUnavailableSchema, DbUnavailableSchema]),
  example: { status: 'busy', error: 'map unavailable' },
});
const blocked: Answer = {
  description: '`blocked`, with blockedUntil unless permanent',
  schema: BlockedSchema,
  example: { error: 'blocked', blockedUntil: at('09:00') },
};
const pluginOutdated: Answer = {
  description: 'Plugin below the minimum',
  schema: PluginOutdatedSchema,
  example: { error: 'plugin_outdated', minimum: '1.2.0', downloadUrl: EXAMPLE_DOWNLOAD },
};
const reportBody = { event: 'round_start', seed: 123456, port: 7777, pluginVersion: '1.2.0' };
const reportAccepted: Answer = {
  description:
    "Accepted. `blockedUntil` is the open window's end, or null with `exhausted` (budget spent) or " +
    '`reason`: `cooldown`, `gap`, `busy` or `closed`',
  schema: ReportResponseSchema,
  example: { ok: true, blockedUntil: at('09:00') },
};

/** GET /openapi.json: the document itself (its outline; the paths are described by this list). */
const OpenApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .loose();

export const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1/servers/claim',
    summary: 'Self-claim a credential after a live game-server probe (4.1)',
    body: SelfClaimBodySchema,
    bodyExample: { port: 7777, clientName: 'my server', gameVersion: '14.1.2' },
    responses: {
      200: { description: 'Issued', schema: VerifiedClaimSchema, example: verified },
      ...common,
      403: error('`no game server` or `private address`'),
      409: error('`address in use`'),
      429: {
        description: '`too many credentials` (with live, max) or `rate limited`',
        schema: z.union([TooManyCredentialsSchema, ErrorBodySchema]),
        headers: ['Retry-After'],
        example: { error: 'too many credentials', live: 3, max: 3 },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/servers/report',
    summary: 'Report the seed of the current round (4.2)',
    auth: 'serverKey',
    body: ReportBodySchema,
    bodyExample: reportBody,
    responses: {
      200: reportAccepted,
      ...common,
      401: error('`invalid credential`'),
      ...limited,
    },
  },
  {
    method: 'post',
    path: '/v1/servers/revoke',
    summary: 'Revoke the presented server key (4.3)',
    auth: 'serverKey',
    responses: {
      200: { description: 'Revoked', schema: RevokeResponseSchema, example: { ok: true } },
      401: error('`invalid credential`'),
      ...limited,
      503: common[503],
    },
  },
  {
    method: 'post',
    path: '/plugin/v1/claim',
    summary: 'Register a game server with a chat-platform code (4.4)',
    body: PluginClaimBodySchema,
    bodyExample: { code: 'ABCDE-FGHJK', port: 7777, pluginVersion: '1.2.0' },
    responses: {
      200: { description: 'Verified', schema: VerifiedClaimSchema, example: verified },
      202: {
        description: 'Manual review; resend later',
        schema: ClaimReviewSchema,
        example: { status: 'review', reason: 'port_mismatch', retryAfterSeconds: 60 },
      },
      ...common,
      401: error('`invalid code`'),
      403: error('`claim rejected`'),
      426: pluginOutdated,
      ...limited,
    },
  },
  {
    method: 'post',
    path: '/plugin/v1/report',
    summary: 'Report the seed of the current round from the plugin (4.5)',
    auth: 'serverKey',
    body: ReportBodySchema,
    bodyExample: reportBody,
    responses: {
      200: reportAccepted,
      ...common,
      401: error('`invalid credential`'),
      426: pluginOutdated,
      ...limited,
    },
  },
  {
    method: 'get',
    path: '/plugin/v1/version',
    summary: 'Latest and minimum plugin versions (4.6)',
    responses: {
      200: {
        description: 'Version info',
        schema: VersionInfoSchema,
        headers: ['Cache-Control'],
        example: { latest: '1.3.0', minimum: '1.2.0', downloadUrl: EXAMPLE_DOWNLOAD },
      },
    },
  },
  {
    method: 'get',
    path: '/maps/{seed}',
    summary: 'The map of a seed; queues generation when missing (4.7)',
    responses: {
      200: {
        description: 'Map (shortened here to one room, spawn, door and tesla gate)',
        schema: MapSchema,
        headers: ['ETag', 'Cache-Control'],
        example: mapExample,
      },
      202: {
        description: 'Generation queued',
        schema: MapPendingSchema,
        example: { status: 'pending', job: 'queued' },
      },
      304: {
        description: 'Not modified: If-None-Match names the current ETag',
        headers: ['ETag', 'Cache-Control'],
      },
      400: error('`invalid seed`'),
      403: blocked,
      ...limited,
      503: mapUnavailable('generation queue full or generation failed'),
    },
  },
  {
    method: 'get',
    path: '/jobs/{seed}',
    summary: 'Generation job of a seed (4.8)',
    responses: {
      200: {
        description: 'Job',
        schema: JobSchema,
        example: { seed: EXAMPLE_SEED, status: 'queued', ahead: 3 },
      },
      400: error('`invalid seed`'),
      403: { ...blocked, description: '`blocked`' },
      503: mapUnavailable('generation queue full'),
    },
  },
  {
    method: 'get',
    path: '/seeds',
    summary: 'Known seeds, newest dump first, paged by cursor (4.9)',
    query: {
      cursor: { description: '`nextCursor` of the previous page', example: EXAMPLE_SEED },
      limit: { description: '1..500, default 200', example: 1 },
    },
    responses: {
      200: {
        description: 'A page',
        schema: SeedPageSchema,
        example: {
          items: [{ seed: 987654, roomCount: 104, spawns: 212, markers: 0, dumped: true, detected: false }],
          total: 1200,
          nextCursor: 987654,
        },
      },
      400: error('`invalid cursor` or `invalid request`'),
      ...dbUnavailable,
    },
  },
  {
    method: 'get',
    path: '/stats/overview',
    summary: 'Overview statistics, cached 60 s (4.10)',
    responses: {
      200: {
        description: 'Overview',
        schema: OverviewSchema,
        example: {
          seedsTracked: 1200,
          seedsDumped: 1150,
          seedsDetected: 40,
          requestsTotal: 98_000,
          detections: { '24h': 3, '7d': 19 },
          uptimeSec: 86_400,
        },
      },
      ...limited,
      ...dbUnavailable,
    },
  },
  {
    method: 'get',
    path: '/stats/protection',
    summary: 'Protection statistics, cached 60 s (4.11)',
    responses: {
      200: {
        description: 'Protection',
        schema: ProtectionSchema,
        example: {
          seeds: 12,
          windows: 15,
          viewAttemptsBlocked: 4,
          recent: [
            { seed: 123456, at: at('08:00'), endedAt: at('08:23'), viewAttempts: 2, keyKind: 'plugin' },
          ],
        },
      },
      ...limited,
      ...dbUnavailable,
    },
  },
  {
    method: 'post',
    path: '/admin/v1/detections',
    summary: 'A sighting from the seed detector',
    auth: 'adminToken',
    body: DetectionBodySchema,
    bodyExample: { seed: EXAMPLE_SEED },
    responses: {
      200: {
        description: 'Recorded (false while the seed is blocked)',
        schema: z.object({ seed: z.number().int(), recorded: z.boolean() }),
        example: { seed: EXAMPLE_SEED, recorded: true },
      },
      ...common,
      401: error('`invalid token`'),
    },
  },
  {
    method: 'get',
    path: '/healthz',
    outsidePrefix: true,
    summary: 'Liveness: answers while the process runs (HEAD too; never logged or rate-limited)',
    responses: {
      200: {
        description: 'Alive',
        schema: LivenessSchema,
        headers: ['Cache-Control'],
        example: { status: 'ok' },
      },
    },
  },
  {
    method: 'get',
    path: '/readyz',
    outsidePrefix: true,
    summary:
      'Readiness: Redis answers a PING within 500 ms, the Lua scripts are loaded, the viewer is built; ' +
      'also the generator workers seen in the last 30 s and the queue depth, and in details the replicas an ' +
      "acknowledged write waits for and this process's clock skew from Redis (HEAD too; never logged or rate-limited)",
    responses: {
      200: {
        description: 'Ready',
        schema: ReadySchema,
        headers: ['Cache-Control'],
        example: {
          status: 'ready',
          checks: { redis: { ok: true }, scripts: { ok: true }, viewer: { ok: true } },
          generators: { workers: 2, waiting: 0, active: 1, stalled: false },
          details: { replicasAck: 1, replicasAckTimeoutMs: 250, clockSkewMs: 3, clockSkewed: false },
        },
      },
      503: {
        description: '`not ready`: failed names each check that did not pass, checks says why',
        schema: UnreadySchema,
        headers: ['Cache-Control'],
        example: {
          status: 'unready',
          error: 'not ready',
          failed: ['redis'],
          checks: {
            redis: { ok: false, error: 'no answer to PING within 500 ms' },
            scripts: { ok: false, error: 'Redis is unreachable' },
            viewer: { ok: true },
          },
          generators: null,
          details: { replicasAck: 1, replicasAckTimeoutMs: 250, clockSkewMs: null, clockSkewed: false },
        },
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: {
        description: 'The document',
        schema: OpenApiDocumentSchema,
        headers: ['Cache-Control'],
        example: { openapi: '3.1.0', info: { title: 'seedblock', version: '1' }, paths: {} },
      },
    },
  },
];

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/** An example as documented: it must pass the schema it illustrates, or the document is not built. */
function checked(schema: z.ZodType, example: unknown, where: string): unknown {
  const parsed = schema.safeParse(example);
  if (!parsed.success)
    throw new Error(`OpenAPI example of ${where} fails its schema: ${parsed.error.message}`);
  return example;
}

export function openApiDocument(apiPrefix: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const where = `${op.method.toUpperCase()} ${op.path}`;
    const seedParam = op.path.includes('{seed}')
      ? [
          {
            name: 'seed',
            in: 'path',
            required: true,
            schema: { type: 'integer', minimum: SEED_MIN, maximum: SEED_MAX },
            example: EXAMPLE_SEED,
          },
        ]
      : [];
    const queryParams = Object.entries(op.query ?? {}).map(([name, { description, example }]) => ({
      name,
      in: 'query',
      required: false,
      description,
      schema: { type: 'integer' },
      example,
    }));
    if (op.body && op.bodyExample === undefined) throw new Error(`${where} has a body but no example`);
    // The probes sit at the root: their path item overrides the document's server (the prefix).
    if (op.outsidePrefix) (paths[op.path] ??= {}).servers = [{ url: '/' }];
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      ...(op.auth ? { security: [{ [op.auth]: [] }] } : {}),
      parameters: [...seedParam, ...queryParams],
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(op.body, 'input'),
                  example: checked(op.body, op.bodyExample, `${where} body`),
                },
              },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, answer]) => [
          status,
          {
            description: answer.description,
            ...(answer.headers
              ? {
                  headers: Object.fromEntries(answer.headers.map((h) => [h, { schema: { type: 'string' } }])),
                }
              : {}),
            ...(answer.schema
              ? {
                  content: {
                    'application/json': {
                      schema: jsonSchema(answer.schema, 'output'),
                      ...(answer.example === undefined
                        ? {}
                        : { example: checked(answer.schema, answer.example, `${where} ${status}`) }),
                    },
                  },
                }
              : {}),
          },
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'seedblock', version: '1', description: 'Seed-blocking and map service API (v1)' },
    servers: [{ url: apiPrefix || '/' }],
    components: {
      securitySchemes: {
        serverKey: { type: 'http', scheme: 'bearer', description: 'A server key (`sbk_…`)' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
      },
    },
    paths,
  };
}

/**
 * Every operation of a document, by method and path; `atRoot` for those whose path item names its
 * own server (the probes). A path item's `servers` is not an operation.
 */
export function documentOperations(doc: { paths: Record<string, object> }) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([key]) => key !== 'servers')
      .map(([method, op]) => ({ method, path, op: op as unknown, atRoot: 'servers' in item })),
  );
}
