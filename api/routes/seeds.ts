import type { ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { SEEDS_PAGE_DEFAULT } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import { sendJson } from '../http/json-answer.ts';
import { parseOr400, SeedParamSchema, SeedsQuerySchema } from '../schemas.ts';

/** An answer of GET /seeds: `query` is the request's query string ('' for none). */
export type SeedPageAnswers = (res: ServerResponse, query: string) => Promise<void>;

/**
 * GET /seeds (4.9): dumped seeds, newest first, paged by the last seed of the previous page.
 * Seeds with an open window are left out and come back when it closes. Written on node's response,
 * for the front door and express alike (table.ts). The query string is parsed as express's default parser does (node:querystring).
 */
export function seedPageAnswers({ store }: ApiDeps): SeedPageAnswers {
  return async (res, query) => {
    const params = parseOr400(SeedsQuerySchema, parseQuery(query));
    const cursor =
      params.cursor === undefined ? null : parseOr400(SeedParamSchema, params.cursor, 'invalid cursor');
    const page = await store.readSeedPage({ limit: params.limit ?? SEEDS_PAGE_DEFAULT, cursor });
    if (page.kind === 'invalid cursor') throw new HttpError(400, 'invalid cursor');
    const { kind: _kind, ...body } = page;
    sendJson(res, 200, body, { 'Cache-Control': 'no-store' });
  };
}

/** The query string of a request target: what follows its `?`, or ''. */
export const queryOf = (target: string): string => {
  const at = target.indexOf('?');
  return at === -1 ? '' : target.slice(at + 1);
};
