import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import type { ManualClock } from '../store/index.ts';
import { compileApi, createApp } from './app.ts';
import type { ApiDeps } from './deps.ts';
import { healthProbes } from './health.ts';
import { clockDate } from './http/clock-date.ts';
import { edge } from './http/edge.ts';
import type { CompiledRoute } from './routes/pipeline.ts';
import type { Route } from './routes/route.ts';

// What makes parseurl hand a target to url.parse (which may rewrite the path) instead of cutting it.
const UNPLAIN = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path of a request as it arrived. An origin-form target (`/path?query`, nearly every request)
 * is cut at its `?`, as parseurl would, without the URL object it builds (one allocation fewer on
 * every map read); any other form goes through parseurl, as express does.
 */
function requestPath(req: IncomingMessage): string {
  const url = req.url!;
  if (url.charCodeAt(0) !== 0x2f || UNPLAIN.test(url)) return parseUrl(req)?.pathname ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** A hot route of the table, ready for the front door: made once, so matching allocates nothing. */
interface HotRoute<T> {
  method: string;
  /** GET routes answer HEAD too. */
  head: boolean;
  /** The whole path, or what precedes the one parameter (which ends the path). */
  start: string;
  /** Where the parameter starts in the path; -1 for a route without one. */
  paramAt: number;
  /** The route, compiled (pipeline.ts). */
  compiled: T;
}

/**
 * The hot routes of the table in their plain spelling: a path spelled exactly, or a prefix and
 * one parameter that is a single path segment without percent-encoding. Every other spelling is
 * express's, which answers it with the same compiled pipeline.
 */
export function hotRoutes<T extends { route: Route }>(apiPrefix: string, routes: readonly T[]) {
  const exact = new Map<string, HotRoute<T>[]>();
  const withParam: HotRoute<T>[] = [];
  for (const compiled of routes) {
    const { route } = compiled;
    if (!route.hot) continue;
    const param = route.path.indexOf('{');
    const start = `${apiPrefix}${param === -1 ? route.path : route.path.slice(0, param)}`;
    const hot: HotRoute<T> = {
      method: route.method.toUpperCase(),
      head: route.method === 'get',
      start,
      paramAt: param === -1 ? -1 : start.length,
      compiled,
    };
    if (param === -1) exact.set(start, [...(exact.get(start) ?? []), hot]);
    else withParam.push(hot);
  }
  const methodFits = (route: HotRoute<T>, method: string | undefined) =>
    method === route.method || (route.head && method === 'HEAD');

  /** The hot route a request takes in its plain spelling, or null. */
  return (req: IncomingMessage, path: string): HotRoute<T> | null => {
    const method = req.method;
    const routes = exact.get(path);
    if (routes !== undefined) {
      for (const route of routes) if (methodFits(route, method)) return route;
    }
    for (const route of withParam) {
      if (
        methodFits(route, method) &&
        path.length > route.paramAt &&
        path.startsWith(route.start) &&
        path.indexOf('/', route.paramAt) === -1 &&
        path.indexOf('%', route.paramAt) === -1
      )
        return route;
    }
    return null;
  };
}

/**
 * Where every request starts, on node's request: the health probes, then the edge (request id,
 * log line and metrics, https redirect, API request count), then the manual clock's `Date` header
 * in test mode, then either a hot route of the table (map reads, reports, the seed list) in its
 * plain form, answered right here by its compiled pipeline, or the express app for the rest.
 *
 * Map reads are most of the traffic and reports what server owners depend on; none of the hot
 * answers needs anything from express, whose routing costs about 40 µs of CPU per request, as much
 * as the rest of a cached map read (bench sections 1 and 2), and whose Object.setPrototypeOf on
 * each request keeps the request alive into V8's old space: a full GC every half second under a
 * seed-list load (bench section 4).
 */
export function frontDoor(deps: ApiDeps): RequestListener {
  const api = compileApi(deps);
  const app = createApp(deps, api);
  const passEdge = edge(deps);
  const answerProbe = healthProbes(deps);
  const hotRoute = hotRoutes(deps.config.API_PREFIX, api.routes);
  const clock = deps.store.ctx.clock;
  const stampDate = clock.kind === 'manual' ? clockDate(clock as ManualClock) : null;

  type Hot = HotRoute<CompiledRoute>;
  const dispatch = (req: IncomingMessage, res: ServerResponse, path: string, hot: Hot | null) => {
    if (hot === null) return app(req, res);
    void hot.compiled.answer(req, res, hot.paramAt === -1 ? undefined : path.slice(hot.paramAt));
  };
  return (req, res) => {
    const path = requestPath(req);
    const hot = hotRoute(req, path);
    // Health probes before the edge: never logged, counted or redirected (health.ts).
    if (hot === null && answerProbe(req, res, path)) return;
    if (passEdge(req, res, path, hot === null ? undefined : hot.compiled.observed)) return;
    if (stampDate) void stampDate(res).then(() => dispatch(req, res, path, hot));
    else dispatch(req, res, path, hot);
  };
}
