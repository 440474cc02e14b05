import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { RATE_LIMITS, type RateLimitName } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { authenticatedKey } from '../http/authenticate.ts';
import { errorAnswer } from '../http/error-handler.ts';
import { HttpError, invalidRequest } from '../http/http-error.ts';
import { readJsonBody } from '../http/json-body.ts';
import { checkPluginMinimum } from '../http/plugin-version.ts';
import { applyLimit } from '../http/rate-limit.ts';
import { adminCheck } from '../http/require-admin.ts';
import type { ObservedRoute } from '../http/request-observer.ts';
import { parseOr400 } from '../schemas.ts';
import { RouteContext, type RouteRuntime } from './context.ts';
import type { Route, TextParam } from './route.ts';

// A route's pipeline, compiled once from its table entry as fastify's lib/route.js compiles a
// route's schema: in order, the limits that count every request, auth, the JSON body parsed into
// a typed ctx.body (a body is read only once the request has passed those), the plugin minimum,
// the path parameter and the query, then the handler. One compiled answer serves the front door
// (node's request, the hot routes in their plain spelling) and express (every other spelling and
// route) alike.

/** A step of a pipeline: it throws the answer that ends the request, or lets it go on. */
type Step = (ctx: RouteContext) => Promise<void> | undefined;

export interface CompiledRoute {
  readonly route: Route;
  /** The metrics label (the express pattern with the API prefix) and log sampling. */
  readonly observed: ObservedRoute;
  /** The path as express matches it (`{seed}` → `:seed`), without the API prefix. */
  readonly expressPath: string;
  /** The name of the route's path parameter, if it has one. */
  readonly param: string | undefined;
  /** Answers the request, failures included (never rejects); `param` the parameter's text. */
  answer(req: IncomingMessage, res: ServerResponse, param: string | undefined): Promise<void>;
}

/** A route's path as express writes it (`{seed}` → `:seed`). */
export const expressPath = (path: string): string => path.replace(/\{([a-z]+)\}/gi, ':$1');

/** A route's metrics label: its express pattern with the API prefix. */
export const routeLabel = (apiPrefix: string, route: Route): string =>
  `${route.outsidePrefix ? '' : apiPrefix}${expressPath(route.path)}`;

/** A text parameter's value, or its route's 400. */
function readParam(name: string, param: TextParam<unknown>, text: string): unknown {
  const value = param.read(text);
  if (value === undefined) throw param.invalid ? new HttpError(400, param.invalid) : invalidRequest(name);
  return value;
}

/** `{name: value}` of a route's one path parameter. */
function readPathParam([name, param]: [string, TextParam<unknown>], text: string): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  params[name] = readParam(name, param, text);
  return params;
}

/** The limits counting every request, each its own round trip, before anything else is read. */
function requestLimitSteps(route: Route): Step[] {
  if (route.admittedInScript) return [];
  return (route.limits ?? [])
    .filter((name) => RATE_LIMITS[name].when === 'request')
    .map(
      (name): Step =>
        (ctx) =>
          applyLimit(ctx.route.store, name, ctx.ipKey, ctx.route.multiplier),
    );
}

function authSteps({ store, config, trustProxy }: ApiDeps, route: Route): Step[] {
  if (route.admittedInScript || !route.auth) return [];
  if (route.auth === 'adminToken') {
    const check = adminCheck(config.ADMIN_TOKEN);
    return [(ctx) => void check(ctx.req)];
  }
  const trust = route.keyFromAnyIp ? null : trustProxy;
  return [
    async (ctx) => {
      ctx.key = await authenticatedKey(store, ctx.req, trust);
    },
  ];
}

function bodySteps({ store }: ApiDeps, route: Route): Step[] {
  const { body: schema, admittedInScript: script } = route;
  if (!schema) return [];
  const read: Step = async (ctx) => {
    try {
      ctx.body = parseOr400(schema, await readJsonBody(ctx.req, ctx.res));
    } catch (bodyFailure) {
      // A refused body counts against the limits its script would have judged, which come first.
      if (script) await ctx.admitted(await script.admitOnly(store, ctx.sender));
      throw bodyFailure;
    }
  };
  // The report scripts judge the minimum themselves, in the same round trip.
  const minimum: Step[] =
    route.pluginMinimum && !script
      ? [(ctx) => checkPluginMinimum(store, (ctx.body as { pluginVersion?: unknown }).pluginVersion)]
      : [];
  return [read, ...minimum];
}

/** The query string of a request target: what follows its `?`, or ''. */
const queryOf = (target: string): string => {
  const at = target.indexOf('?');
  return at === -1 ? '' : target.slice(at + 1);
};

/**
 * The declared query parameters, read as express's default parser does (node:querystring); a
 * parameter left out takes its default, one given twice is malformed.
 */
function queryStep(query: Record<string, TextParam<unknown>>): Step {
  const declared = Object.entries(query);
  return (ctx) => {
    const given = parseQuery(queryOf(ctx.req.url!));
    const values: Record<string, unknown> = {};
    for (const [name, param] of declared) {
      const text = given[name];
      if (Array.isArray(text)) throw invalidRequest(name);
      values[name] = text === undefined ? param.default : readParam(name, param, text);
    }
    ctx.query = values;
    return undefined;
  };
}

function runtimeOf({ store, config, trustProxy }: ApiDeps, route: Route): RouteRuntime {
  const limits = route.limits ?? [];
  const steps = new Set<RateLimitName>(limits.filter((name) => RATE_LIMITS[name].when === 'step'));
  return { id: route.id, store, trustProxy, multiplier: config.RATE_LIMIT_MULTIPLIER, steps };
}

/** The one path parameter of a route, if any: at most one, and it ends the path. */
function pathParam(route: Route): [string, TextParam<unknown>] | undefined {
  const names = [...route.path.matchAll(/\{([a-z]+)\}/gi)].map((m) => m[1]!);
  const declared = Object.keys(route.params ?? {});
  if (names.join() !== declared.join()) throw new Error(`${route.id}: its path and its params differ`);
  if (names.length > 1 || (names.length === 1 && !route.path.endsWith('}')))
    throw new Error(`${route.id}: one path parameter at most, ending the path`);
  return names.length === 0 ? undefined : [names[0]!, route.params![names[0]!]!];
}

/** A route's answer, compiled from its table entry (route.ts); made once per process. */
export function compileRoute(deps: ApiDeps, route: Route): CompiledRoute {
  const { config, logger, metrics } = deps;
  if (!route.handler) throw new Error(`${route.id} has no handler`);
  const handle = route.handler(deps, route);
  const param = pathParam(route);
  const steps: Step[] = [
    ...requestLimitSteps(route),
    ...authSteps(deps, route),
    ...bodySteps(deps, route),
    ...(route.query ? [queryStep(route.query)] : []),
  ];
  const runtime = runtimeOf(deps, route);
  const answerError = errorAnswer(logger, metrics);

  async function answer(req: IncomingMessage, res: ServerResponse, text: string | undefined) {
    const ctx = new RouteContext(req, res, runtime);
    try {
      for (let i = 0; i < steps.length; i++) {
        const running = steps[i]!(ctx);
        if (running !== undefined) await running;
      }
      if (param !== undefined) ctx.params = readPathParam(param, text!);
      await handle(ctx);
    } catch (err) {
      answerError(err, res, res.observedPath ?? req.url ?? '');
    }
  }
  return {
    route,
    observed: {
      label: routeLabel(config.API_PREFIX, route),
      logEvery: route.logSample?.(config) ?? 1,
      skipped: 0,
    },
    expressPath: expressPath(route.path),
    param: param?.[0],
    answer,
  };
}
