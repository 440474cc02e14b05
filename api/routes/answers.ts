import { generateMap } from '../../generator/index.ts';
import { DbUnavailableSchema, errorShape, RateLimitedSchema } from '../schemas.ts';
import type { Answer } from './route.ts';

// The answers and examples several routes of the table share (table.ts).

/** The seed of every example path. */
export const EXAMPLE_SEED = 224593721;
export const EXAMPLE_CREDENTIAL = 'sbk_7Gq2LmZ9pX4vT1cR8sW3nB6yK0dF5hJa3f9c1e';
export const EXAMPLE_DOWNLOAD = 'https://example.com/seedblock-plugin/releases/1.3.0';
export const at = (time: string) => `2026-03-01T${time}:00.000Z`;

// A real map of the example seed, cut to one of each thing so the page stays readable.
const fullMap = generateMap(EXAMPLE_SEED);
export const mapExample = {
  ...fullMap,
  rooms: fullMap.rooms.slice(0, 1),
  spawns: fullMap.spawns.slice(0, 1),
  doors: fullMap.doors.slice(0, 1),
  teslas: fullMap.teslas.slice(0, 1),
};

export const RETRY_AFTER = 'Seconds until a request may succeed';

/** What a 400 `invalid request` says of its input. */
export const FIELD_NAMED =
  '`field` names the body field or query parameter that failed, absent when the body as a whole is ' +
  'not a JSON object';

/**
 * An error answer: `{error}` with one of `errors` (its enum), the first one as the example. The
 * description names each in backticks (the contract test checks the real ones are among them).
 */
export function error(
  errors: readonly [string, ...string[]],
  note?: string,
  headers?: Answer['headers'],
): Answer {
  const named = errors.map((e) => `\`${e}\``).join(' or ');
  return {
    description: note ? `${named}: ${note}` : named,
    schema: errorShape(errors),
    headers,
    example: { error: errors[0] },
  };
}

/** 503 while Redis is away (every route that needs it). */
export const dbUnavailable: Answer = {
  description: '`db unavailable`: retry shortly',
  schema: DbUnavailableSchema,
  headers: { 'Retry-After': RETRY_AFTER },
  example: { error: 'db unavailable' },
};

/** 429 past one of the route's limits. */
export const rateLimited: Answer = {
  description: '`rate limited`: past one of the limits of this route',
  schema: RateLimitedSchema,
  headers: { 'Retry-After': `${RETRY_AFTER}: when the limit's window ends` },
  example: { error: 'rate limited' },
};

/** Every route with a JSON body: the body is read before anything else (http/json-body.ts). */
export const bodyAnswers = {
  400: error(['invalid request'], `malformed; ${FIELD_NAMED}`),
  413: error(['request body too large (at most 16 KiB)']),
  415: error(['unsupported charset (send UTF-8 JSON)', 'unsupported content encoding']),
  503: dbUnavailable,
};
