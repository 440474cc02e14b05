import type { z } from 'zod';
import type { Config } from '../../runtime/config.ts';
import type { RATE_LIMITS, RateLimitName, ReportAdmission, ReportSender, Store } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import type { RouteContext, RouteInput } from './context.ts';

// What one route of the API is (fastify's route options as the model): everything about it in one
// declaration, from which its pipeline (pipeline.ts: limits, auth, body, parameters, handler), the
// front door's matching, express's registration, the metrics label and the OpenAPI document are
// all derived (table.ts).

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

/**
 * An integer given as text (a path segment, a query value): what the document says of it, and
 * `read`, which gives its value, or undefined for a malformed one (answered 400 `invalid`).
 */
export interface TextParam<T> {
  description: string;
  minimum?: number;
  maximum?: number;
  /** Taken when the query leaves the parameter out. */
  default?: T & number;
  example: number;
  read(text: string): T | undefined;
  /** The error of a malformed value; `invalid request` (naming the parameter) unless said. */
  invalid?: string;
}
type TextParams = Record<string, TextParam<unknown>>;
/** The values of declared parameters; a query parameter without a default may be left out. */
type Read<P extends TextParams, Optional extends boolean> = {
  [K in keyof P]: P[K] extends TextParam<infer T>
    ? Optional extends true
      ? P[K] extends { default: number }
        ? T
        : T | undefined
      : T
    : never;
};

/** Of the limits a route declares, those that count one step (RouteContext.limit takes them). */
type StepLimits<L extends RateLimitName> = {
  [K in L]: (typeof RATE_LIMITS)[K]['when'] extends 'step' ? K : never;
}[L];

export type Tag = 'servers' | 'plugin' | 'maps' | 'stats' | 'admin' | 'operations';

/**
 * How the route's limits and key are judged when its one script judges them with its decision
 * (the reports: one round trip for all): `admitOnly` judges them alone, for a request whose body
 * is refused, so that it counts all the same (spec 8 rule 2).
 */
export interface ScriptAdmission {
  admitOnly(store: Store, sender: ReportSender): Promise<ReportAdmission>;
}

/** A route's handler: its own decision, given what its pipeline read. Made once per process. */
export type Handler<I extends Partial<RouteInput> = RouteInput> = (ctx: RouteContext<I>) => Promise<void>;

interface Declaration<B, P extends TextParams, Q extends TextParams, L extends RateLimitName> {
  /** The OpenAPI operationId; unique. */
  id: string;
  tag: Tag;
  method: 'get' | 'post';
  /** OpenAPI path (`{param}`, each declared in `params`) under the API prefix, or at the root. */
  path: string;
  /** Served at the root whatever API_PREFIX is, by the front door before the edge (the probes). */
  outsidePrefix?: true;
  summary: string;
  auth?: 'serverKey' | 'adminToken';
  /** A server key from any IP, not only the one it was registered at (revoke). */
  keyFromAnyIp?: true;
  /** The spec 8 limits of this route: those counting every request are checked in this order. */
  limits?: readonly L[];
  /** Limits and key judged in the route's one script (see ScriptAdmission). */
  admittedInScript?: ScriptAdmission;
  /** The JSON body, parsed into `ctx.body`; a body that fails is 400 naming the field. */
  body?: z.ZodType<B>;
  /** The example request's body; every route with a body has one. */
  bodyExample?: unknown;
  /** A `pluginVersion` below the operator's minimum is refused, 426 (spec 4.4, 4.5). */
  pluginMinimum?: true;
  /** The path parameter (at most one, ending the path), parsed into `ctx.params`. */
  params?: P;
  query?: Q;
  responses: Record<number, Answer>;
  /**
   * Answered by the front door without express when spelled plainly (no percent-encoding in the
   * parameter; GET also takes HEAD); express answers every other spelling with the same pipeline.
   */
  hot?: true;
  /** Successful answers (200, 304) are logged one in this many (metrics count each). */
  logSample?: (config: Config) => number;
  /** The route's own decision; none for the probes, which health.ts answers before the edge. */
  handler?: (
    deps: ApiDeps,
    route: Route,
  ) => Handler<{ body: B; params: Read<P, false>; query: Read<Q, true>; steps: StepLimits<L> }>;
}

/** A route as the pipeline, the front door and the document read it. */
export type Route = Omit<Declaration<unknown, TextParams, TextParams, RateLimitName>, 'handler'> & {
  handler?: (deps: ApiDeps, route: Route) => Handler;
};

/**
 * A route of the table: its handler's context is typed by what the declaration says (the body's
 * schema, the parameters, the step limits), so a handler reads nothing its route does not declare.
 */
export function route<
  B = undefined,
  P extends TextParams = Record<never, never>,
  Q extends TextParams = Record<never, never>,
  L extends RateLimitName = never,
>(declaration: Declaration<B, P, Q, L>): Route {
  return declaration as unknown as Route;
}
