import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import type { ManualClock } from '../store/index.ts';
import { createApp } from './app.ts';
import type { ApiDeps } from './deps.ts';
import { healthProbes } from './health.ts';
import { clockDate } from './http/clock-date.ts';
import { edge } from './http/edge.ts';
import { errorAnswer } from './http/error-handler.ts';
import { mapReads, mapRoutePath, plainMapRead } from './routes/maps.ts';
import { plainReport, reportAnswers, reportRouteLabels, type ReportRoute } from './routes/report.ts';
import { plainSeedPage, seedPageAnswers, SEEDS_ROUTE } from './routes/seeds.ts';

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

/**
 * Where every request starts, on node's request: the health probes, then the edge (request id,
 * log line and metrics, https redirect, API request count), then the manual clock's `Date` header in test mode, then
 * either a map read, a report or a seed list page in its plain form, answered right here, or the
 * express app for the rest.
 *
 * Map reads are most of the traffic and reports what server owners depend on; none of the three
 * answers needs anything from express, whose routing costs about 40 µs of CPU per request, as much
 * as the rest of a cached map read (bench sections 1 and 2), and whose Object.setPrototypeOf on
 * each request keeps the request alive into V8's old space: a full GC every half second under a
 * seed-list load (bench section 4).
 */
export function frontDoor(deps: ApiDeps): RequestListener {
  const readMap = mapReads(deps);
  const answerReport = reportAnswers(deps);
  const answerSeedPage = seedPageAnswers(deps);
  const app = createApp(deps, { readMap, answerReport, answerSeedPage });
  const passEdge = edge(deps);
  const answerProbe = healthProbes(deps);
  const prefix = deps.config.API_PREFIX;
  const mapSeed = plainMapRead(prefix);
  const mapRoute = mapRoutePath(prefix);
  const reportRoute = plainReport(prefix);
  const reportLabels = reportRouteLabels(prefix);
  const seedPage = plainSeedPage(prefix);
  const seedsRoute = `${prefix}${SEEDS_ROUTE}`;
  const answerError = errorAnswer(deps.logger, deps.metrics);
  const clock = deps.store.ctx.clock;
  const stampDate = clock.kind === 'manual' ? clockDate(clock as ManualClock) : null;

  const dispatch = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    seed: string | null,
    report: ReportRoute | null,
    seedsQuery: string | null,
  ) => {
    const answered =
      seed !== null
        ? readMap(req, res, seed)
        : report !== null
          ? answerReport(req, res, report)
          : seedsQuery !== null
            ? answerSeedPage(res, seedsQuery)
            : null;
    if (answered === null) return app(req, res);
    answered.catch((err: unknown) => answerError(err, res, path));
  };
  return (req, res) => {
    const path = requestPath(req);
    const seed = mapSeed(req, path);
    const report = seed === null ? reportRoute(req, path) : null;
    const seedsQuery = seed === null && report === null ? seedPage(req, path) : null;
    const plain = seed !== null || report !== null || seedsQuery !== null;
    // Health probes before the edge: never logged, counted or redirected (health.ts).
    if (!plain && answerProbe(req, res, path)) return;
    const route =
      seed !== null
        ? mapRoute
        : report !== null
          ? reportLabels[report]
          : seedsQuery !== null
            ? seedsRoute
            : undefined;
    if (passEdge(req, res, path, route)) return;
    if (stampDate) void stampDate(res).then(() => dispatch(req, res, path, seed, report, seedsQuery));
    else dispatch(req, res, path, seed, report, seedsQuery);
  };
}
