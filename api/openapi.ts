import { z } from 'zod';
import { RATE_LIMITS, SEED_MAX, SEED_MIN, type RateLimitName } from '../store/index.ts';
import { EXAMPLE_SEED } from './routes/answers.ts';
import type { Answer, HeaderName, Route, Tag } from './routes/route.ts';
import { ROUTES } from './routes/table.ts';
import { apiSchemas } from './schemas.ts';

// The OpenAPI 3.1 document, made from the route table (routes/table.ts) and the zod schemas the
// routes validate with. The schemas a client meets by name (schemas.ts `apiSchemas`) are
// components; every example is parsed with its schema when the document is built, so none can
// drift from what the service accepts and answers. Success bodies are open to new fields: v1 adds
// fields (spec 9.1), and a client validating with the document must not break on them.

const TAGS: Record<Tag, string> = {
  servers: 'Game-server keys: self-claim, reports, revocation (4.1-4.3)',
  plugin: 'The game-server plugin: claim, reports, version (4.4-4.6)',
  maps: 'Maps, generation jobs and the seed list (4.7-4.9)',
  stats: 'Statistics (4.10, 4.11)',
  admin: 'Operator calls (ADMIN_TOKEN)',
  operations: 'Health probes and this document',
};

const HEADER_SCHEMAS: Record<HeaderName, object> = {
  'Retry-After': { type: 'integer', minimum: 1 },
  'Cache-Control': { type: 'string' },
  ETag: { type: 'string' },
};

/**
 * A header is required where it is always sent. Retry-After is sent with every 429 (spec 8) and
 * every 503, documented on each (routes/answers.ts), and on no other status.
 */
const headerRequired = (name: HeaderName, status: number) =>
  name !== 'Retry-After' || status === 429 || status === 503;

/** The headers an answer of `status` always carries. */
export const requiredHeaders = (status: number, answer: Answer): HeaderName[] =>
  (Object.keys(answer.headers ?? {}) as HeaderName[]).filter((name) => headerRequired(name, status));

const MINUTE = 60_000;
const window = (ms: number) => (ms === MINUTE ? 'minute' : `${ms / MINUTE} minutes`);
/** What a route's limits are, in words, from the spec 8 table (store/constants.ts). */
const limitsText = (names: readonly RateLimitName[]) =>
  names
    .map((name) => {
      const { limit, windowMs, per, counts } = RATE_LIMITS[name];
      return `${limit} ${counts} per ${window(windowMs)} per ${per}`;
    })
    .join('; ');

/** An example as documented: it must pass the schema it illustrates, or the document is not built. */
function checked(schema: z.ZodType, example: unknown, where: string): unknown {
  const parsed = schema.safeParse(example);
  if (!parsed.success)
    throw new Error(`OpenAPI example of ${where} fails its schema: ${parsed.error.message}`);
  return example;
}

/** components.schemas, filled as schemas are placed in the document. */
function componentSchemas() {
  const schemas: Record<string, unknown> = {};
  const refs = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<
      string,
      unknown
    >;
  /** `schema` as JSON Schema, each named schema in it a `$ref` to its component. */
  const place = (schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> => {
    const {
      $schema: _,
      $defs,
      ...json
    } = z.toJSONSchema(schema, {
      metadata: apiSchemas,
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      // Answers are open to new fields (zod writes `additionalProperties: false` for its objects).
      override: ({ jsonSchema }) => {
        if (io === 'output' && jsonSchema.additionalProperties === false)
          delete jsonSchema.additionalProperties;
      },
    });
    for (const [id, def] of Object.entries($defs ?? {})) {
      const component = refs(def);
      if (id in schemas && JSON.stringify(schemas[id]) !== JSON.stringify(component))
        throw new Error(`schema ${id} differs between requests and answers`);
      schemas[id] = component;
    }
    return refs(json);
  };
  return { schemas, place };
}

function parameters(route: Route) {
  const seed = route.path.includes('{seed}')
    ? [
        {
          name: 'seed',
          in: 'path',
          required: true,
          description: 'The seed, in decimal',
          schema: { type: 'integer', minimum: SEED_MIN, maximum: SEED_MAX },
          example: EXAMPLE_SEED,
        },
      ]
    : [];
  const query = Object.entries(route.query ?? {}).map(([name, p]) => ({
    name,
    in: 'query',
    required: false,
    description: p.description,
    schema: { type: 'integer', minimum: p.minimum, maximum: p.maximum, default: p.default },
    example: p.example,
  }));
  return [...seed, ...query];
}

export function openApiDocument(apiPrefix: string) {
  const { schemas, place } = componentSchemas();
  const answer = (status: number, a: Answer, where: string) => ({
    description: a.description,
    ...(a.headers
      ? {
          headers: Object.fromEntries(
            (Object.entries(a.headers) as [HeaderName, string][]).map(([name, description]) => [
              name,
              { description, required: headerRequired(name, status), schema: HEADER_SCHEMAS[name] },
            ]),
          ),
        }
      : {}),
    ...(a.schema
      ? {
          content: {
            'application/json': {
              schema: place(a.schema, 'output'),
              ...(a.example === undefined ? {} : { example: checked(a.schema, a.example, where) }),
            },
          },
        }
      : {}),
  });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    if (route.body && route.bodyExample === undefined) throw new Error(`${where} has a body but no example`);
    // The probes sit at the root: their path item overrides the document's server (the prefix).
    if (route.outsidePrefix) (paths[route.path] ??= {}).servers = [{ url: '/' }];
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.id,
      tags: [route.tag],
      summary: route.summary,
      ...(route.limits ? { description: `Limits (spec 8): ${limitsText(route.limits)}.` } : {}),
      security: route.auth ? [{ [route.auth]: [] }] : [],
      parameters: parameters(route),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: place(route.body, 'input'),
                  example: checked(route.body, route.bodyExample, `${where} body`),
                },
              },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, a]) => [
          status,
          answer(Number(status), a, `${where} ${status}`),
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'seedblock',
      version: '1',
      description: 'Seed-blocking and map service API (v1)',
    },
    servers: [{ url: apiPrefix || '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        serverKey: { type: 'http', scheme: 'bearer', description: 'A server key (`sbk_…`)' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
      },
      schemas,
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
