import { z } from 'zod';
import { MapSchema } from '../generator/index.ts';
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
// against real responses.

/** A documented answer; one without a schema has no body (304). */
type Answer = { description: string; schema?: z.ZodType; headers?: string[] };
export interface Operation {
  method: 'get' | 'post';
  /** OpenAPI path under the API prefix, or at the root with `outsidePrefix`. */
  path: string;
  /** Served at the root whatever API_PREFIX is (the health probes). */
  outsidePrefix?: true;
  summary: string;
  auth?: 'serverKey' | 'adminToken';
  body?: z.ZodType;
  query?: Record<string, string>;
  responses: Record<number, Answer>;
}

const error = (description: string, headers?: string[]): Answer => ({
  description,
  schema: ErrorBodySchema,
  headers,
});
// Every operation with a JSON body: the body is read before anything else (http/json-body.ts).
const common = {
  400: error('Malformed request'),
  413: error('`request body too large (at most 16 KiB)`'),
  415: error('`unsupported charset (send UTF-8 JSON)` or `unsupported content encoding`'),
  503: error('`db unavailable`: retry shortly'),
};
const limited = { 429: error('`rate limited`', ['Retry-After']) };
// Reads need Redis too: while it is away they answer 503 `db unavailable` like every other call.
const DbUnavailableSchema = z.object({ error: z.literal('db unavailable') });
const dbUnavailable = {
  503: { description: '`db unavailable`: retry shortly', schema: DbUnavailableSchema },
};
const mapUnavailable = (what: string): Answer => ({
  description: `\`map unavailable\` (status busy): ${what}; or \`db unavailable\``,
  schema: z.union([MapUnavailableSchema, DbUnavailableSchema]),
});

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
    responses: {
      200: { description: 'Issued', schema: VerifiedClaimSchema },
      ...common,
      403: error('`no game server` or `private address`'),
      409: error('`address in use`'),
      429: {
        description: '`too many credentials` (with live, max) or `rate limited`',
        schema: z.union([TooManyCredentialsSchema, ErrorBodySchema]),
        headers: ['Retry-After'],
      },
    },
  },
  {
    method: 'post',
    path: '/v1/servers/report',
    summary: 'Report the seed of the current round (4.2)',
    auth: 'serverKey',
    body: ReportBodySchema,
    responses: {
      200: { description: 'Accepted', schema: ReportResponseSchema },
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
      200: { description: 'Revoked', schema: RevokeResponseSchema },
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
    responses: {
      200: { description: 'Verified', schema: VerifiedClaimSchema },
      202: { description: 'Manual review; resend later', schema: ClaimReviewSchema },
      ...common,
      401: error('`invalid code`'),
      403: error('`claim rejected`'),
      426: { description: 'Plugin below the minimum', schema: PluginOutdatedSchema },
      ...limited,
    },
  },
  {
    method: 'post',
    path: '/plugin/v1/report',
    summary: 'Report the seed of the current round from the plugin (4.5)',
    auth: 'serverKey',
    body: ReportBodySchema,
    responses: {
      200: { description: 'Accepted', schema: ReportResponseSchema },
      ...common,
      401: error('`invalid credential`'),
      426: { description: 'Plugin below the minimum', schema: PluginOutdatedSchema },
      ...limited,
    },
  },
  {
    method: 'get',
    path: '/plugin/v1/version',
    summary: 'Latest and minimum plugin versions (4.6)',
    responses: {
      200: { description: 'Version info', schema: VersionInfoSchema, headers: ['Cache-Control'] },
    },
  },
  {
    method: 'get',
    path: '/maps/{seed}',
    summary: 'The map of a seed; queues generation when missing (4.7)',
    responses: {
      200: { description: 'Map', schema: MapSchema, headers: ['ETag', 'Cache-Control'] },
      202: { description: 'Generation queued', schema: MapPendingSchema },
      304: {
        description: 'Not modified: If-None-Match names the current ETag',
        headers: ['ETag', 'Cache-Control'],
      },
      400: error('`invalid seed`'),
      403: { description: '`blocked`, with blockedUntil unless permanent', schema: BlockedSchema },
      ...limited,
      503: mapUnavailable('generation queue full or generation failed'),
    },
  },
  {
    method: 'get',
    path: '/jobs/{seed}',
    summary: 'Generation job of a seed (4.8)',
    responses: {
      200: { description: 'Job', schema: JobSchema },
      400: error('`invalid seed`'),
      403: { description: '`blocked`', schema: BlockedSchema },
      503: mapUnavailable('generation queue full'),
    },
  },
  {
    method: 'get',
    path: '/seeds',
    summary: 'Known seeds, newest dump first, paged by cursor (4.9)',
    query: { cursor: '`nextCursor` of the previous page', limit: '1..500, default 200' },
    responses: {
      200: { description: 'A page', schema: SeedPageSchema },
      400: error('`invalid cursor` or `invalid request`'),
      ...dbUnavailable,
    },
  },
  {
    method: 'get',
    path: '/stats/overview',
    summary: 'Overview statistics, cached 60 s (4.10)',
    responses: { 200: { description: 'Overview', schema: OverviewSchema }, ...limited, ...dbUnavailable },
  },
  {
    method: 'get',
    path: '/stats/protection',
    summary: 'Protection statistics, cached 60 s (4.11)',
    responses: {
      200: { description: 'Protection', schema: ProtectionSchema },
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
    responses: {
      200: {
        description: 'Recorded (false while the seed is blocked)',
        schema: z.object({ seed: z.number().int(), recorded: z.boolean() }),
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
    responses: { 200: { description: 'Alive', schema: LivenessSchema, headers: ['Cache-Control'] } },
  },
  {
    method: 'get',
    path: '/readyz',
    outsidePrefix: true,
    summary:
      'Readiness: Redis answers a PING within 500 ms, the Lua scripts are loaded, the viewer is built; ' +
      'also the generator workers seen in the last 30 s and the queue depth (HEAD too; never logged or rate-limited)',
    responses: {
      200: { description: 'Ready', schema: ReadySchema, headers: ['Cache-Control'] },
      503: {
        description: '`not ready`: failed names each check that did not pass, checks says why',
        schema: UnreadySchema,
        headers: ['Cache-Control'],
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: { description: 'The document', schema: OpenApiDocumentSchema, headers: ['Cache-Control'] },
    },
  },
];

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

export function openApiDocument(apiPrefix: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const seedParam = op.path.includes('{seed}')
      ? [
          {
            name: 'seed',
            in: 'path',
            required: true,
            schema: { type: 'integer', minimum: SEED_MIN, maximum: SEED_MAX },
          },
        ]
      : [];
    const queryParams = Object.entries(op.query ?? {}).map(([name, description]) => ({
      name,
      in: 'query',
      required: false,
      description,
      schema: { type: 'integer' },
    }));
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
              content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
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
              ? { content: { 'application/json': { schema: jsonSchema(answer.schema, 'output') } } }
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
