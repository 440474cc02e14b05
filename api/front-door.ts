import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import type { ManualClock } from '../store/index.ts';
import { createApp, hotAnswers } from './app.ts';
import type { ApiDeps } from './deps.ts';
import { healthProbes } from './health.ts';
import { clockDate } from './http/clock-date.ts';
import { edge } from './http/edge.ts';
import { errorAnswer } from './http/error-handler.ts';
import type { HotAnswer, HotAnswers } from './routes/route.ts';
import { routeLabel, ROUTES } from './routes/table.ts';

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
interface HotRoute {
  method: string;
  /** GET routes answer HEAD too. */
  head: boolean;
  /** The whole path, or what precedes the one parameter (which ends the path). */
  start: string;
  /** Where the parameter starts in the path; -1 for a route without one. */
  paramAt: number;
  answer: HotAnswer;
  /** The metrics label (routes/table.ts routeLabel). */
  label: string;
}

/**
 * The hot routes of the table in their plain spelling: a path spelled exactly, or a prefix and
 * one parameter that is a single path segment without percent-encoding. Every other spelling is
 * express's, which answers it with the same function.
 */
export function hotRoutes(apiPrefix: string, answers: HotAnswers) {
  const exact = new Map<string, HotRoute[]>();
  const withParam: HotRoute[] = [];
  for (const route of ROUTES) {
    if (!route.hot) continue;
    const param = route.path.indexOf('{');
    if (param !== -1 && !route.path.endsWith('}'))
      throw new Error(`${route.path}: a hot route's parameter ends it`);
    const start = `${apiPrefix}${param === -1 ? route.path : route.path.slice(0, param)}`;
    const hot: HotRoute = {
      method: route.method.toUpperCase(),
      head: route.method === 'get',
      start,
      paramAt: param === -1 ? -1 : start.length,
      answer: route.hot(answers),
      label: routeLabel(apiPrefix, route),
    };
    if (param === -1) exact.set(start, [...(exact.get(start) ?? []), hot]);
    else withParam.push(hot);
  }
  const methodFits = (route: HotRoute, method: string | undefined) =>
    method === route.method || (route.head && method === 'HEAD');

  /** The hot route a request takes in its plain spelling, or null. */
  return (req: IncomingMessage, path: string): HotRoute | null => {
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
 * plain form, answered right here, or the express app for the rest.
 *
 * Map reads are most of the traffic and reports what server owners depend on; none of the hot
 * answers needs anything from express, whose routing costs about 40 µs of CPU per request, as much
 * as the rest of a cached map read (bench sections 1 and 2), and whose Object.setPrototypeOf on
 * each request keeps the request alive into V8's old space: a full GC every half second under a
 * seed-list load (bench section 4).
 */
export function frontDoor(deps: ApiDeps): RequestListener {
  const answers = hotAnswers(deps);
  const app = createApp(deps, answers);
  const passEdge = edge(deps);
  const answerProbe = healthProbes(deps);
  const hotRoute = hotRoutes(deps.config.API_PREFIX, answers);
  const answerError = errorAnswer(deps.logger, deps.metrics);
  const clock = deps.store.ctx.clock;
  const stampDate = clock.kind === 'manual' ? clockDate(clock as ManualClock) : null;

  const dispatch = (req: IncomingMessage, res: ServerResponse, path: string, hot: HotRoute | null) => {
    if (hot === null) return app(req, res);
    const param = hot.paramAt === -1 ? undefined : path.slice(hot.paramAt);
    hot.answer(req, res, param).catch((err: unknown) => answerError(err, res, path));
  };
  return (req, res) => {
    const path = requestPath(req);
    const hot = hotRoute(req, path);
    // Health probes before the edge: never logged, counted or redirected (health.ts).
    if (hot === null && answerProbe(req, res, path)) return;
    if (passEdge(req, res, path, hot === null ? undefined : hot.label)) return;
    if (stampDate) void stampDate(res).then(() => dispatch(req, res, path, hot));
    else dispatch(req, res, path, hot);
  };
}
