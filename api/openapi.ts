import { z } from 'zod';
import { RATE_LIMITS, type RateLimitName } from '../store/index.ts';
import { sendJsonText } from './http/json-answer.ts';
import type {
  HeaderObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
} from './openapi-types.ts';
import { route, type Answer, type HeaderName, type Route, type Tag, type TextParam } from './routes/route.ts';
import { ROUTES } from './routes/table.ts';
import { apiSchemas } from './schemas.ts';

export type { OpenApiDocument } from './openapi-types.ts';

// The OpenAPI module: the OpenAPI 3.1 document, made once per process from the route table
// (routes/table.ts) and the zod schemas the routes validate with, and its own route, which serves
// it at /openapi.json (the same object goes to /docs). The schemas a client meets by name
// (schemas.ts `apiSchemas`) are components; every example is parsed with its schema when the
// document is built, so none can drift from what the service accepts and answers. Success bodies
// are open to new fields: v1 adds fields (spec 9.1), and a client validating with the document
// must not break on them.

/** GET /openapi.json: the document itself (its outline; the paths are described by the table). */
const OpenApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .loose();

const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

/** The document's own route (served by openApi below; the table lists the API's routes). */
const DOCUMENT_ROUTE = route({
  id: 'openApiDocument',
  tag: 'operations',
  method: 'get',
  path: '/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  responses: {
    200: {
      description: 'The document',
      schema: OpenApiDocumentSchema,
      headers: { 'Cache-Control': `\`${DOCUMENT_CACHE_CONTROL}\`` },
      example: { openapi: '3.1.0', info: { title: 'seedblock', version: '1' }, paths: {} },
    },
  },
});

/** Every route the document describes: the table's, then its own. */
export const DOCUMENTED_ROUTES: readonly Route[] = [...ROUTES, DOCUMENT_ROUTE];

const TAGS: Record<Tag, string> = {
  servers: 'Game-server keys: self-claim, reports, revocation (4.1-4.3)',
  plugin: 'The game-server plugin: claim, reports, version (4.4-4.6)',
  maps: 'Maps, generation jobs and the seed list (4.7-4.9)',
  stats: 'Statistics (4.10, 4.11)',
  admin: 'Operator calls (ADMIN_TOKEN)',
  operations: 'Health probes and this document',
};

const HEADER_SCHEMAS: Record<HeaderName, SchemaObject> = {
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
      const { limit, windowMs, per, unit } = RATE_LIMITS[name];
      return `${limit} ${unit} per ${window(windowMs)} per ${per}`;
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
  const schemas: Record<string, SchemaObject> = {};
  const refs = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as SchemaObject;
  /** `schema` as JSON Schema, each named schema in it a `$ref` to its component. */
  const place = (schema: z.ZodType, io: 'input' | 'output'): SchemaObject => {
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

/** A parameter given as text, as the document writes it (an integer, its range and default). */
function parameter(name: string, where: 'path' | 'query', p: TextParam<unknown>): ParameterObject {
  return {
    name,
    in: where,
    required: where === 'path',
    description: p.description,
    schema: { type: 'integer', minimum: p.minimum, maximum: p.maximum, default: p.default },
    example: p.example,
  };
}

/** A route's declared path parameter, then its query. */
const parameters = (route: Route): ParameterObject[] => [
  ...Object.entries(route.params ?? {}).map(([name, p]) => parameter(name, 'path', p)),
  ...Object.entries(route.query ?? {}).map(([name, p]) => parameter(name, 'query', p)),
];

type Place = ReturnType<typeof componentSchemas>['place'];

function headersOf(status: number, a: Answer): Record<string, HeaderObject> {
  return Object.fromEntries(
    (Object.entries(a.headers ?? {}) as [HeaderName, string][]).map(([name, description]) => [
      name,
      { description, required: headerRequired(name, status), schema: HEADER_SCHEMAS[name] },
    ]),
  );
}

/** One answer of an operation, its example checked against its schema. */
function response(place: Place, status: number, a: Answer, where: string): ResponseObject {
  return {
    description: a.description,
    ...(a.headers ? { headers: headersOf(status, a) } : {}),
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
  };
}

function operation(place: Place, route: Route): OperationObject {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  if (route.body && route.bodyExample === undefined) throw new Error(`${where} has a body but no example`);
  return {
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
        response(place, Number(status), a, `${where} ${status}`),
      ]),
    ),
  };
}

/** The document of every route this API serves (DOCUMENTED_ROUTES) under `apiPrefix`. */
export function openApiDocument(apiPrefix: string): OpenApiDocument {
  const { schemas, place } = componentSchemas();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of DOCUMENTED_ROUTES) {
    // The probes sit at the root: their path item overrides the document's server (the prefix).
    if (route.outsidePrefix) (paths[route.path] ??= {}).servers = [{ url: '/' }];
    (paths[route.path] ??= {})[route.method] = operation(place, route);
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
 * The API as one process serves it: the document, built once (it also goes to /docs), and every
 * route, the table's and the document's own, which answers with the document's JSON.
 */
export function openApi(apiPrefix: string): { document: OpenApiDocument; routes: readonly Route[] } {
  const document = openApiDocument(apiPrefix);
  const text = JSON.stringify(document);
  const served: Route = {
    ...DOCUMENT_ROUTE,
    handler: () => async (ctx) =>
      sendJsonText(ctx.res, 200, text, { 'Cache-Control': DOCUMENT_CACHE_CONTROL }),
  };
  return { document, routes: [...ROUTES, served] };
}

/**
 * Every operation of a document, by method and path; `atRoot` for those whose path item names its
 * own server (the probes). A path item's `servers` is not an operation.
 */
export function documentOperations(doc: Pick<OpenApiDocument, 'paths'>) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const).flatMap((method) => {
      const op = item[method];
      return op ? [{ method, path, op, atRoot: 'servers' in item }] : [];
    }),
  );
}
