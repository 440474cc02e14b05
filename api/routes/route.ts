import type { RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { RateLimitName } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import type { MapReads } from './maps.ts';
import type { ReportAnswers } from './report.ts';
import type { SeedPageAnswers } from './seeds.ts';

// What one route of the API is (fastify's route options as the model): everything about it in one
// declaration, from which the front door's matching, express's registration, the metrics label and
// the OpenAPI document are all derived (table.ts).

/** The response headers the document knows; each answer says what its value means. */
export type HeaderName = 'Retry-After' | 'Cache-Control' | 'ETag';

/** A documented answer; one without a schema has no body (304). */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  /** Headers this answer carries, with what their value is. */
  headers?: Partial<Record<HeaderName, string>>;
  example?: unknown;
}

/** An integer query parameter: what it means, its range and default, a value for the example. */
export interface QueryParam {
  description: string;
  minimum?: number;
  maximum?: number;
  default?: number;
  example: number;
}

/** The answers the front door gives itself, shared with express's registration of the same routes. */
export interface HotAnswers {
  readMap: MapReads;
  answerReport: ReportAnswers;
  answerSeedPage: SeedPageAnswers;
}

/**
 * A route's answer outside express: `param` is the text of its one path parameter (undefined for
 * a route without one). Made once per process, so the front door allocates nothing to call it.
 */
export type HotAnswer = (
  req: IncomingMessage,
  res: ServerResponse,
  param: string | undefined,
) => Promise<void>;

export type Handler = RequestHandler;

export type Tag = 'servers' | 'plugin' | 'maps' | 'stats' | 'admin' | 'operations';

export interface Route {
  /** The OpenAPI operationId; unique. */
  id: string;
  tag: Tag;
  method: 'get' | 'post';
  /** OpenAPI path (`{param}`) under the API prefix, or at the root with `outsidePrefix`. */
  path: string;
  /** Served at the root whatever API_PREFIX is, by the front door before the edge (the probes). */
  outsidePrefix?: true;
  summary: string;
  auth?: 'serverKey' | 'adminToken';
  /** The spec 8 limits that count this route's requests, in the order they are checked. */
  limits?: readonly RateLimitName[];
  body?: z.ZodType;
  /** The example request's body; every route with a body has one. */
  bodyExample?: unknown;
  query?: Record<string, QueryParam>;
  responses: Record<number, Answer>;
  /**
   * Answered by the front door without express when spelled plainly (one path segment per
   * parameter, no percent-encoding; GET also takes HEAD); express answers every other spelling
   * with the same function.
   */
  hot?: (answers: HotAnswers) => HotAnswer;
  /** Express handlers of a route that is not hot (the probes have neither: health.ts answers them). */
  handlers?: (deps: ApiDeps) => Handler[];
}
